// Benchmark (not a test; docs/PERFORMANCE.md, "WebAssembly"): how long the
// page takes, in Debian's headless chromium, from a file given to its file
// input to the file's row in the table (read, SHA-256 by WebCrypto,
// validation), and to its 3D preview drawn (the reference loader's model,
// WebGL: software rendering in headless chromium without a GPU), against
// the native command on the same file in the same run. Median of RUNS.
// Usage: node page_bench.mjs NATIVE SOURCE_DIR WASM_WEB_DIR CHROMIUM RUNS FILE...
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';

const [native, src, webDir, chromium, runsText, ...files] = process.argv.slice(2);
const runs = Number(runsText) || 3;
const puppeteer = createRequire(path.resolve(src, 'build/npm/package.json'))('puppeteer-core');
const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-chromium-'));
const browser = await puppeteer.launch({
  executablePath: chromium, headless: true, userDataDir: profile,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
console.log('| file | MB | native command | page: file input to table row | ratio | to the preview drawn |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
try {
  for (const file of files) {
    const n = [];
    const w = [];
    const v = [];
    for (let i = 0; i < runs; i++) {
      let t0 = performance.now();
      try { execFileSync(native, ['--no-config', '-o', 'json', file], { stdio: 'ignore' }); } catch { /* exit 1 */ }
      n.push((performance.now() - t0) / 1000);
      const page = await browser.newPage();
      await page.goto(`file://${path.resolve(webDir)}/index.html`);
      await page.waitForSelector('body[data-ready="1"]');
      const input = await page.$('#pick-files');
      await input.uploadFile(file);
      // the page's own clock, from the input's change event (app.js): a
      // wait here would also count the preview, which runs right after
      await page.waitForSelector('body[data-preview-ms]', { timeout: 120000 });
      const ms = await page.evaluate(() => [document.body.dataset.tableMs, document.body.dataset.previewMs]);
      w.push(Number(ms[0]) / 1000);
      v.push(Number(ms[1]) / 1000);
      await page.close();
    }
    const mb = (fs.statSync(file).size / 1e6).toFixed(1);
    console.log(`| ${path.basename(file)} | ${mb} | ${median(n).toFixed(3)} s | ${median(w).toFixed(3)} s | ${(median(w) / median(n)).toFixed(1)}x | ${median(v).toFixed(3)} s |`);
  }
} finally {
  await browser.close();
  fs.rmSync(profile, { recursive: true, force: true });
}
