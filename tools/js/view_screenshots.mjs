#!/usr/bin/env node
// Usage: node view_screenshots.mjs PAGE.html OUTDIR T1 [T2 ...]
//
// Opens a page written by `jointsim view` (or make_page.mjs) in headless
// Chromium (/usr/bin/chromium, Debian package `chromium`) through
// playwright-core, with a fresh temporary profile and an 800x600 viewport, and
// drives it the way a person would:
//   * waits for window.jointViewer.ready (60 s at most);
//   * for each time Ti: sets the #time slider to Ti and dispatches `input` (as
//     dragging it does), waits two animation frames, and saves a screenshot to
//     OUTDIR/t{index}.png (index from 0);
//   * clicks #play, waits ~300 ms, checks that jointViewer.playing became true
//     and that the slider moved on, then clicks #play again to pause.
// Prints one JSON object on stdout:
//   { page, duration, renderer, screenshots: [paths], labels: [#time-label
//     text per screenshot], drawnFraction: [share of pixels clearly unlike the
//     background per screenshot], playAdvanced, consoleErrors: [...],
//     externalRequests: [...], ok }
// Exit status: 0 when all went well; 1 when ready failed or timed out, a page
// error or console error occurred, the page asked for anything but file:,
// data: or blob: URLs (the page must work offline), or the scene is animated
// but playing did not advance; 2 on a usage error.
//
// Environment: CHROMIUM (default /usr/bin/chromium).
import { chromium } from 'playwright-core';
import { mkdirSync, mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

// Headless WebGL: Chromium has no GPU here, so WebGL runs on SwiftShader (a CPU
// Vulkan implementation) through ANGLE. `--use-angle=swiftshader` asks for it
// explicitly (same pixels on every machine, GPU or not) and
// `--enable-unsafe-swiftshader` keeps it allowed where Chromium (>= 137)
// would otherwise refuse the automatic software fallback for WebGL.
// playwright-core itself adds `--headless` (the new headless mode) and a few
// more switches (it also passes --enable-unsafe-swiftshader by default).
const CHROMIUM_ARGS = [
  '--no-sandbox', // we run as root in a container
  '--disable-gpu',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const READY_TIMEOUT_MS = 60_000;

function usage(msg) {
  if (msg) console.error(`view_screenshots: ${msg}`);
  console.error('usage: node view_screenshots.mjs PAGE.html OUTDIR T1 [T2 ...]');
  process.exit(2);
}

const [pagePath, outDir, ...timeArgs] = process.argv.slice(2);
if (!pagePath || !outDir || timeArgs.length === 0) usage();
const times = timeArgs.map(Number);
if (times.some((t) => !Number.isFinite(t) || t < 0)) usage('times must be numbers >= 0');
if (!existsSync(pagePath)) usage(`no such file: ${pagePath}`);
try {
  mkdirSync(outDir, { recursive: true });
} catch (err) {
  usage(err.message);
}
const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';

const result = {
  page: resolve(pagePath),
  duration: null,
  renderer: null,
  screenshots: [],
  labels: [],
  drawnFraction: [],
  playAdvanced: false,
  consoleErrors: [],
  externalRequests: [],
  ok: false,
};
let failure = null;

const userDataDir = mkdtempSync(join(tmpdir(), 'jointsim-view-'));
let context;
try {
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 800, height: 600 },
    deviceScaleFactor: 1,
    offline: true,
  });
  const page = context.pages()[0] || (await context.newPage());
  page.on('console', (msg) => {
    if (msg.type() === 'error') {
      result.consoleErrors.push(msg.text());
      console.error(`[page console.error] ${msg.text()}`);
    } else if (msg.type() === 'warning' && !/GL Driver Message .*Performance/.test(msg.text())) {
      // (SwiftShader's "GPU stall due to ReadPixels" notes, caused by our own
      // pixel read-back below, are left out.)
      console.error(`[page console.warn] ${msg.text()}`);
    }
  });
  page.on('pageerror', (err) => {
    result.consoleErrors.push(`pageerror: ${err.message}`);
    console.error(`[page error] ${err.stack || err.message}`);
  });
  page.on('request', (req) => {
    const url = req.url();
    if (!/^(file|data|blob):/i.test(url)) result.externalRequests.push(url);
  });

  await page.goto(pathToFileURL(resolve(pagePath)).href, { waitUntil: 'load', timeout: READY_TIMEOUT_MS });
  await page.waitForFunction(() => !!(window.jointViewer && window.jointViewer.ready), null, { timeout: READY_TIMEOUT_MS });
  const ready = await page.evaluate(async (timeoutMs) => {
    const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error(`jointViewer.ready did not settle in ${timeoutMs} ms`)), timeoutMs));
    try {
      await Promise.race([window.jointViewer.ready, timeout]);
    } catch (err) {
      return { error: String(err && err.message ? err.message : err) };
    }
    const gl = document.querySelector('canvas')?.getContext('webgl2');
    const dbg = gl && gl.getExtension('WEBGL_debug_renderer_info');
    return {
      duration: window.jointViewer.duration,
      renderer: gl ? gl.getParameter(dbg ? dbg.UNMASKED_RENDERER_WEBGL : gl.RENDERER) : null,
    };
  }, READY_TIMEOUT_MS);
  if (ready.error) throw new Error(`viewer not ready: ${ready.error}`);
  result.duration = ready.duration;
  result.renderer = ready.renderer;

  const twoFrames = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));

  for (let i = 0; i < times.length; i++) {
    await page.evaluate((t) => {
      const slider = document.getElementById('time');
      slider.value = String(t);
      slider.dispatchEvent(new Event('input', { bubbles: true }));
    }, times[i]);
    await twoFrames();
    const file = join(outDir, `t${i}.png`);
    await page.screenshot({ path: file });
    result.screenshots.push(resolve(file));
    const info = await page.evaluate(() => {
      // Share of canvas pixels clearly unlike the background (#f4f4f4); the
      // faint grid stays below the threshold. Needs preserveDrawingBuffer.
      const src = document.querySelector('#viewport canvas') || document.querySelector('canvas');
      const c = document.createElement('canvas');
      c.width = src.width;
      c.height = src.height;
      const ctx = c.getContext('2d', { willReadFrequently: true });
      ctx.drawImage(src, 0, 0);
      const d = ctx.getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let k = 0; k < d.length; k += 4) {
        if (Math.abs(d[k] - 244) > 48 || Math.abs(d[k + 1] - 244) > 48 || Math.abs(d[k + 2] - 244) > 48) n++;
      }
      return { label: document.getElementById('time-label').textContent, drawn: n / (d.length / 4) };
    });
    result.labels.push(info.label);
    result.drawnFraction.push(Number(info.drawn.toFixed(5)));
  }

  // Play / pause through the real button.
  const playable = await page.evaluate(() => !document.getElementById('play').disabled);
  if (playable) {
    await page.click('#play');
    const v0 = await page.evaluate(() => Number(document.getElementById('time').value));
    await page.waitForTimeout(300);
    const after = await page.evaluate(() => ({
      playing: window.jointViewer.playing,
      value: Number(document.getElementById('time').value),
    }));
    await page.click('#play');
    const pausedAgain = await page.evaluate(() => window.jointViewer.playing === false);
    result.playAdvanced = after.playing === true && after.value !== v0 && pausedAgain;
    if (!result.playAdvanced && result.duration > 0) {
      failure = `play did not advance (playing=${after.playing}, slider ${v0} -> ${after.value}, paused again=${pausedAgain})`;
    }
  }
} catch (err) {
  failure = err && err.message ? err.message : String(err);
} finally {
  if (context) await context.close().catch(() => {});
  rmSync(userDataDir, { recursive: true, force: true });
}

if (!failure && result.consoleErrors.length > 0) failure = `${result.consoleErrors.length} console error(s) on the page`;
if (!failure && result.externalRequests.length > 0) failure = `the page requested external URLs: ${result.externalRequests.join(' ')}`;
result.ok = !failure;
if (failure) result.failure = failure;
console.log(JSON.stringify(result, null, 2));
process.exit(failure ? 1 : 0);
