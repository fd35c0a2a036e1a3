#!/usr/bin/env node
// Usage: node make_page.mjs SCENE.glb OUT.html [TITLE]
//
// Builds the same self-contained HTML page that `jointsim view` writes: fills
// jointsim/src/viewer.html with the HTML-escaped
// title, the base64 of the .glb and the viewer bundle (run `npm run build`
// first). The placeholders are replaced in ONE pass over the template, so text
// inserted for one placeholder is never searched for another.
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const runtimeDir = join(here, '..', '..', 'joint-runtime');

function usage(msg) {
  if (msg) console.error(`make_page: ${msg}`);
  console.error('usage: node make_page.mjs SCENE.glb OUT.html [TITLE]');
  process.exit(2);
}

function escapeHtml(s) {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

function makePage(template, { title, glbBase64, viewerJs }) {
  const values = { TITLE: escapeHtml(title), GLB_BASE64: glbBase64, VIEWER_JS: viewerJs };
  return template.replace(/\{\{(TITLE|GLB_BASE64|VIEWER_JS)\}\}/g, (_, name) => values[name]);
}

const args = process.argv.slice(2);
if (args.length < 2 || args.length > 3) usage();
const [glbPath, outPath] = args;
const title = args[2] ?? basename(glbPath);
let glb, template, viewerJs;
try {
  glb = readFileSync(glbPath);
  template = readFileSync(join(runtimeDir, 'src', 'cli', 'viewer.html'), 'utf8');
  viewerJs = readFileSync(join(runtimeDir, 'generated', 'viewer.js'), 'utf8');
} catch (err) {
  usage(err.message + (String(err.message).includes('viewer.js') ? ' (run `npm run build` in tools/js)' : ''));
}
if (/<\/script/i.test(viewerJs)) usage('viewer bundle contains </script; rebuild it with `npm run build`');
try {
  writeFileSync(outPath, makePage(template, { title, glbBase64: glb.toString('base64'), viewerJs }));
} catch (err) {
  usage(err.message);
}
console.log(JSON.stringify({ page: outPath, glbBytes: glb.length, title }));
