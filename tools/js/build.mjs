// `npm run build`: bundles viewer/viewer.js (three.js inlined) into ONE
// minified IIFE at jointsim/generated/viewer.js, and copies
// three.js's LICENSE beside it. The Rust side pastes the bundle inside a
// <script> element of jointsim/src/viewer.html, so the output must never contain
// `</script` (it would end the element early) nor any of the template's
// placeholders; this script makes sure of both.
import { build } from 'esbuild';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
const outDir = join(repo, 'joint-runtime', 'generated');
const outFile = join(outDir, 'viewer.js');
const threeLicense = readFileSync(join(here, 'node_modules', 'three', 'LICENSE'), 'utf8');
const threeCopyright = (threeLicense.match(/Copyright[^\n]*/) || ['Copyright Three.js Authors'])[0].trim().replace(/\u00a9/g, '(c)'); // keep the banner ASCII
const threePkg = JSON.parse(readFileSync(join(here, 'node_modules', 'three', 'package.json'), 'utf8'));

const banner = [
  '/* jointsim viewer bundle. GENERATED FILE, do not edit: produced by `npm run build`',
  ' * in tools/js from tools/js/viewer/viewer.js (see tools/js/README.md).',
  ` * Contains three.js r${threePkg.version.split('.')[1]} (${threePkg.version}), ${threeCopyright},`,
  ' * MIT licensed: see three-LICENSE.txt beside this file. */',
].join('\n');

const result = await build({
  entryPoints: [join(here, 'viewer', 'viewer.js')],
  bundle: true,
  format: 'iife',
  minify: true,
  target: ['es2020'],
  platform: 'browser',
  legalComments: 'none', // the banner names three.js and its licence instead
  banner: { js: banner },
  write: false,
  logLevel: 'warning',
  define: { 'process.env.NODE_ENV': '"production"' },
});

let code = result.outputFiles[0].text;

// esbuild already escapes `</script` inside string and template literals when it
// targets the browser; this is a second line of defence for anything it left
// (e.g. in a regular expression literal, where `<\/script` means the same).
const scriptEnd = /<\/(script)/gi;
const found = (code.match(scriptEnd) || []).length;
if (found > 0) {
  console.warn(`build: replacing ${found} occurrence(s) of </script with <\\/script`);
  code = code.replace(scriptEnd, '<\\/$1');
}
if (/<\/script/i.test(code)) throw new Error('bundle still contains </script');
// `<!--` inside a script element switches the HTML parser into the "script data
// escaped" state; harmless alone, but keep the bundle free of it anyway.
if (code.includes('<!--')) throw new Error('bundle contains <!-- ; escape it in the source');
for (const ph of ['{{TITLE}}', '{{GLB_BASE64}}', '{{VIEWER_JS}}']) {
  if (code.includes(ph)) throw new Error(`bundle contains the template placeholder ${ph}`);
}

mkdirSync(outDir, { recursive: true });
writeFileSync(outFile, code);
writeFileSync(join(outDir, 'three-LICENSE.txt'), threeLicense);
console.log(`build: wrote ${relative(repo, outFile)} (${Buffer.byteLength(code)} bytes, three ${threePkg.version})`);
