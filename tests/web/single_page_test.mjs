// The single-file page (issue 36): modelcheck.html copied alone into an
// empty directory, as an artist keeps it, and opened from there (file://)
// in headless chromium with the network off (offline, and every request
// that is not the page itself, data: or blob: refused and counted). A file
// selected and a file dropped are validated: the table's verdict and counts,
// the issues' codes and offsets against the native command's text report
// (hex, as it writes them); an issue selected explains its code with the
// catalog's "why it matters" and "what to do", and choosing another file
// clears the explanation.
// Usage: node single_page_test.mjs NATIVE SOURCE_DIR WASM_WEB_DIR CHROMIUM OUT
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checker, launch } from './browser.mjs';

const [native, src, webDir, chromium, out] = process.argv.slice(2);
const result = checker();
const { check } = result;
const nativeOut = (args) => {
  try { return execFileSync(native, ['--no-config', ...args], { maxBuffer: 1 << 26 }).toString(); } catch (e) { return e.stdout.toString(); }
};

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-single-'));
const page1 = path.join(dir, 'modelcheck.html');
fs.copyFileSync(path.join(webDir, 'modelcheck.html'), page1);
const picked = path.join(src, 'corpus/e3d/invalid/nan_position_in_lzma.e3d');
const dropped = path.join(src, 'corpus/aem/invalid/weights_sum_0_93.aem');
const catalog = new Map(JSON.parse(execFileSync(native, ['--list-codes', '-o', 'json']).toString()).map((c) => [c.code, c]));

// the native report's issues of a file: code and offset as the text report writes them
function nativeIssues(file) {
  const doc = JSON.parse(nativeOut(['-o', 'json', file]));
  const text = nativeOut([file]);
  const f = doc.files[0];
  return { f, lines: text.split('\n').filter((l) => l.startsWith(`${file}:0x`)) };
}

const chrome = await launch(src, chromium, 1280, 900);
try {
  const { browser } = chrome;
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  await page.setOfflineMode(true);
  const outside = [];
  await page.setRequestInterception(true);
  page.on('request', (req) => {
    const url = req.url();
    if (url === `file://${page1}` || /^(data|blob):/.test(url)) req.continue();
    else { outside.push(url); req.abort(); }
  });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  check(fs.readdirSync(dir).join() === 'modelcheck.html', `the page is alone in ${dir} (${fs.statSync(page1).size} bytes)`);
  await page.goto(`file://${page1}`);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 60000 });
  check(true, 'modelcheck.html opened from file:// offline: ready');

  const rowsOf = () => page.$$eval('#files tbody tr', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
  const validated = (n) => page.waitForFunction((k) => document.querySelectorAll('#files tbody tr').length === k &&
    /validated in/.test(document.querySelector('#status').textContent), { timeout: 60000 }, n).then(() => true, () => false);

  // a file selected in the file input
  await (await page.$('#pick-files')).uploadFile(picked);
  check(await validated(1), 'a file selected: validated');
  // a file dropped on the drop zone (a DataTransfer of File objects)
  await page.evaluate((name, bytes) => {
    const dt = new DataTransfer();
    dt.items.add(new File([new Uint8Array(bytes)], name));
    const zone = document.querySelector('#drop');
    for (const type of ['dragenter', 'dragover', 'drop']) zone.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, path.basename(dropped), [...fs.readFileSync(dropped)]);
  check(await validated(2), 'a file dropped: validated, beside the one selected');
  const rows = (await rowsOf()).filter((r) => r[0] === path.basename(dropped));
  const want = nativeIssues(dropped);
  const n = want.f;
  const line = [path.basename(dropped), n.valid ? 'valid' : 'invalid', n.counts.error, n.counts.warning, n.counts.info, n.counts.hint, n.size].join(' ');
  const got = rows.map(([p, , v, e, w, i, h, size]) => [p, v, e, w, i, h, size].join(' ')).join();
  check(got === line, `the dropped file's row as native: ${got}`);

  // each issue: code and offset as the command's text report writes them
  await page.click('#files tbody tr[data-index="1"]');
  const shown = await page.$$eval('#issues tbody tr[data-code]', (trs) => trs.map((t) => `${t.dataset.code} ${t.children[2].textContent}`));
  const cli = want.lines.map((l) => {
    const m = /^[^:]*:(0x[0-9a-f]+): [a-z]+: ([A-Z0-9_]+):/.exec(l.slice(dropped.length));
    return m ? `${m[2]} ${m[1]}` : l;
  });
  check(shown.length > 0 && shown.join('\n') === cli.join('\n'), `issues: ${shown.length} codes and hex offsets as the text report (${shown.join(', ')})`);

  // an issue selected: explained, why and what to do from the catalog
  const code = await page.$eval('#issues tbody tr[data-code]', (t) => t.dataset.code);
  await page.click('#issues tbody tr[data-code]');
  const text = await page.$eval('#explain', (e) => e.textContent);
  const c = catalog.get(code);
  check(text.includes(code) && text.includes(`Why it matters: ${c.why}`) && text.includes(`What to do: ${c.what_to_do}`),
    `${code} explained with why it matters and what to do`);
  await page.screenshot({ path: path.join(out, 'single-page.png') });

  // another file: the explanation is cleared
  await page.click('#files tbody tr[data-index="0"]');
  const after = await page.$eval('#explain', (e) => e.textContent);
  check(!after.includes(code) && !after.includes('Why it matters'), `the explanation is cleared when the file changes (${after})`);
  // the decoded offset of an issue inside an E3D LZMA block, as the CLI says it
  const e3d = await page.$eval('#issues tbody tr[data-code]', (t) => t.children[2].textContent);
  const wantE3d = /:(0x[0-9a-f]+): .*\(decoded offset (0x[0-9a-f]+)\)/.exec(nativeOut([picked]));
  check(wantE3d && e3d === `${wantE3d[1]} (decoded ${wantE3d[2]})`, `an offset in an LZMA block: ${e3d}`);

  check(outside.length === 0, `no request but the page itself${outside.length ? `: ${outside.slice(0, 3).join(' ')}` : ''}`);
  check(errors.length === 0, `no script error${errors.length ? `: ${errors[0]}` : ''}`);
} finally {
  await chrome.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
console.log(result.failures ? `FAIL: ${result.failures} check(s)` : 'PASS: the single-file page');
process.exit(result.failures ? 1 : 0);
