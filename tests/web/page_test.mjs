// The page as a user meets it (issue 28): index.html opened from the build
// tree (file://) in headless chromium, corpus files given to its file input;
// the table's verdicts and counts, and each file's codes, against the native
// command's report; an issue selected: the hex view shows its byte, the 3D
// preview highlights its vertex or triangle (pixels change); the severity
// filter and a severity override; the downloaded JSON report equals the
// native one (paths aside: the page knows file names only); no request
// leaves the page; the structure view (modelcheck inspect) shows the
// file's tree, marks the node of a selected issue, and the hex view names
// the byte under the pointer as inspect --at; files and folders dropped on
// the drop zone (a DataTransfer made in the page; a drop from the desktop
// through DevTools' Input.dispatchDragEvent, on file:// and, with the
// FileSystemEntry walk of other browsers, on http:) give the native
// report's rows and codes. Screenshots go to OUT.
// Usage: node page_test.mjs NATIVE SOURCE_DIR WASM_WEB_DIR CHROMIUM OUT
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { checker, launch } from './browser.mjs';

const [native, src, webDir, chromium, out] = process.argv.slice(2);
const result = checker();
const { check } = result;

const formats = ['aem', 'semodel', 'aamf', 'e3d', 'nlm'];
const files = [];
for (const f of formats) {
  for (const kind of ['valid', 'invalid']) {
    const dir = path.join(src, 'corpus', f, kind);
    for (const name of fs.readdirSync(dir).sort()) files.push(path.join(dir, name));
  }
}
const nativeRun = (args) => {
  try {
    return execFileSync(native, ['--no-config', '-o', 'json', ...args], { maxBuffer: 1 << 28 }).toString();
  } catch (e) {
    return e.stdout.toString(); // exit 1: some file has errors
  }
};
const nativeDoc = JSON.parse(nativeRun(files));
const nativeByName = new Map(nativeDoc.files.map((f) => [path.basename(f.path), f]));

// A drop's rows against the native report of the same files: path, verdict,
// counts and size of each, then each file's codes (every severity shown).
// want: the native report's files, their paths as the page names them.
async function checkDropped(page, want, what) {
  const rows = await page.$$eval('#files tbody tr', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
  const line = (n) => [n.path, n.valid ? 'valid' : 'invalid', n.counts.error, n.counts.warning, n.counts.info, n.counts.hint, n.size].join(' ');
  const got = rows.map(([p, , verdict, e, w, i, h, size]) => [p, verdict, e, w, i, h, size].join(' '));
  const expected = want.map(line);
  check(got.join('\n') === expected.join('\n'), `${what}: ${got.length} rows (paths, order, verdicts, counts) as native (${expected.length})`);
  if (got.join('\n') !== expected.join('\n')) console.log(`  page:\n    ${got.join('\n    ')}\n  native:\n    ${expected.join('\n    ')}`);
  let same = 0;
  for (let k = 0; k < rows.length && k < want.length; k++) {
    await page.click(`#files tbody tr[data-index="${k}"]`);
    const shown = await page.$$eval('#issues tbody tr[data-code]', (trs) => [...new Set(trs.map((t) => t.dataset.code))].sort().join(','));
    const codes = [...new Set(want[k].issues.map((x) => x.code))].sort().join(',');
    if (shown === codes) same++;
    else console.log(`  ${rows[k][0]}: page codes ${shown}, native ${codes}`);
  }
  check(same === want.length && want.length > 0, `${what}: codes of ${same}/${want.length} files as native`);
}

// The files the native command reports for args, their paths relative to base.
function nativeFiles(args, base) {
  return JSON.parse(nativeRun(args)).files.map((f) => ({ ...f, path: path.relative(base, f.path) }));
}

async function dropTests(browser, errors) {
  const page = await browser.newPage();
  page.on('pageerror', (e) => errors.push(String(e)));
  const fresh = async (url = `file://${webDir}/index.html`) => {
    await page.goto(url);
    await page.waitForSelector('body[data-ready="1"]', { timeout: 30000 });
  };
  const validated = () => page.waitForFunction(() => /file\(s\) validated in/.test(document.querySelector('#status').textContent), { timeout: 15000 })
    .then(() => true, () => false);
  // one valid and one invalid file of each format, and a named file no format recognises
  const picked = [];
  for (const f of formats) for (const kind of ['valid', 'invalid']) picked.push(files.find((p) => p.includes(`/corpus/${f}/${kind}/`)));
  picked.push(path.join(src, 'corpus/any/invalid/plain_text.txt'));

  // 1. a drop as a script makes one: a DataTransfer of File objects made from
  // the files' bytes, dragenter, dragover and drop dispatched on the drop zone
  await fresh();
  const payload = picked.map((f) => [path.basename(f), fs.readFileSync(f).toString('base64')]);
  const over = await page.evaluate((payload) => {
    const dt = new DataTransfer();
    for (const [name, b64] of payload) dt.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], name));
    const zone = document.querySelector('#drop');
    const accepted = [];
    for (const type of ['dragenter', 'dragover']) {
      accepted.push(!zone.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true })));
    }
    const highlighted = zone.classList.contains('over');
    zone.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    return { accepted, highlighted };
  }, payload);
  check(over.accepted.every(Boolean) && over.highlighted, 'drop zone accepts the drag (dragenter and dragover cancelled) and is highlighted');
  check(await validated(), 'files dropped (a DataTransfer of File objects): validated');
  const byName = (list) => list.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  await checkDropped(page, byName(nativeFiles(picked, '').map((f) => ({ ...f, path: path.basename(f.path) }))), 'files dropped');

  // 2. a drop as the browser makes one from the desktop (DevTools'
  // Input.dispatchDragEvent with paths): a file and a folder with a
  // subfolder, hidden names and a file no format recognises
  const tree = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-drop-'));
  const folder = path.join(tree, 'dropped');
  for (const [to, from] of [['a.aem', picked[1]], ['sub/b.nlm', picked[8]], ['sub/c.semodel', picked[2]],
    ['.hidden.e3d', picked[6]], ['.git/d.aem', picked[0]], ['notes.txt', picked[10]]]) {
    fs.mkdirSync(path.dirname(path.join(folder, to)), { recursive: true });
    fs.copyFileSync(from, path.join(folder, to));
  }
  const single = picked[4];
  const desktopDrop = async () => {
    const box = await (await page.$('#drop')).boundingBox();
    const cdp = await page.createCDPSession();
    const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
    const data = { items: [], files: [folder, single], dragOperationsMask: 1 };
    for (const type of ['dragEnter', 'dragOver', 'drop']) await cdp.send('Input.dispatchDragEvent', { type, x, y, data });
    await cdp.detach();
  };
  const wantTree = byName([...nativeFiles([folder], tree), ...nativeFiles([single], path.dirname(single))]);
  try {
    await fresh();
    await desktopDrop();
    check(await validated(), 'a file and a folder dropped from the desktop (file://): validated');
    await checkDropped(page, wantTree, 'file and folder dropped (file://, folder read through its handle)');

    // 3. without getAsFileSystemHandle (Firefox, Safari: the folder's
    // FileSystemEntry is walked): over http: the folder is walked as above;
    // from file:// chromium refuses the entry: the status names the folder, the file is validated
    const server = http.createServer((req, res) => {
      const name = path.basename(new URL(req.url, 'http://x').pathname) || 'index.html';
      const type = { '.html': 'text/html', '.js': 'text/javascript' }[path.extname(name)];
      if (!type || !fs.existsSync(path.join(webDir, name))) { res.writeHead(404).end(); return; }
      res.writeHead(200, { 'content-type': type }).end(fs.readFileSync(path.join(webDir, name)));
    });
    await new Promise((r) => server.listen(0, '127.0.0.1', r));
    try {
      await page.evaluateOnNewDocument(() => { delete DataTransferItem.prototype.getAsFileSystemHandle; });
      await fresh(`http://127.0.0.1:${server.address().port}/index.html`);
      await desktopDrop();
      check(await validated(), 'dropped over http without getAsFileSystemHandle: validated');
      await checkDropped(page, wantTree, 'file and folder dropped (http:, folder walked as FileSystemEntry)');
    } finally {
      server.close();
    }
    await fresh();
    await desktopDrop();
    check(await validated(), 'dropped on file:// without getAsFileSystemHandle: the file validated');
    const status = await page.$eval('#status', (e) => e.textContent);
    const rows = await page.$$eval('#files tbody tr', (trs) => trs.map((tr) => tr.children[0].textContent));
    check(/folder\(s\) dropped could not be read here/.test(status) && status.includes('(dropped)') && rows.join() === path.basename(single),
      `the folder chromium refuses on file:// is named in the status (${status}), the file shown (${rows.join()})`);
  } finally {
    fs.rmSync(tree, { recursive: true, force: true });
    await page.close();
  }
}

const downloads = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-downloads-'));
const chrome = await launch(src, chromium, 1400, 1000);
const { browser } = chrome;
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1400, height: 1000 });
  const outside = [];
  await page.setRequestInterception(true);
  page.on('request', (req) => {
    const url = req.url();
    if (/^(file|data|blob):/.test(url)) req.continue();
    else { outside.push(url); req.abort(); }
  });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  const t0 = Date.now();
  await page.goto(`file://${webDir}/index.html`);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 30000 });
  console.log(`page ready in ${Date.now() - t0} ms`);
  check(/never leave this machine/.test(await page.$eval('#privacy', (e) => e.textContent)), 'the page says files never leave the machine');

  const input = await page.$('#pick-files');
  const t1 = Date.now();
  await input.uploadFile(...files);
  await page.waitForFunction((n) => document.querySelectorAll('#files tbody tr').length === n, { timeout: 60000 }, files.length);
  console.log(`${files.length} files validated and shown in ${Date.now() - t1} ms`);
  const rows = await page.$$eval('#files tbody tr', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
  let same = 0;
  for (const [name, , verdict, e, w, i, h, size] of rows) {
    const n = nativeByName.get(name);
    const want = n && [n.valid ? 'valid' : 'invalid', n.counts.error, n.counts.warning, n.counts.info, n.counts.hint, n.size].join(' ');
    const got = [verdict, e, w, i, h, size].join(' ');
    if (want === got) same++;
    else console.log(`  ${name}: page '${got}', native '${want}'`);
  }
  check(same === files.length && rows.length === files.length, `table: ${same}/${files.length} verdicts and counts as native`);

  // each file's codes (every severity shown), on one file in four
  let codesSame = 0;
  let codesChecked = 0;
  for (let k = 0; k < rows.length; k += 4) {
    await page.click(`#files tbody tr[data-index="${k}"]`);
    const shown = await page.$$eval('#issues tbody tr[data-code]', (trs) => [...new Set(trs.map((t) => t.dataset.code))].sort().join(','));
    const want = [...new Set(nativeByName.get(rows[k][0]).issues.map((x) => x.code))].sort().join(',');
    codesChecked++;
    if (shown === want) codesSame++;
    else console.log(`  ${rows[k][0]}: page codes ${shown}, native ${want}`);
  }
  check(codesSame === codesChecked, `issues: codes of ${codesSame}/${codesChecked} files as native`);

  // an issue naming a vertex, then one naming a triangle: hex view and preview react
  for (const [name, code] of [['normals_zero_2018.semodel', 'SEMODEL_NORMAL_ZERO'], ['samf_degenerate_face.aamf', 'SAMF_FACE_DEGENERATE']]) {
    const index = rows.findIndex((r) => r[0] === name);
    await page.click(`#files tbody tr[data-index="${index}"]`);
    const meshes = await page.$eval('#preview', (c) => Number(c.dataset.meshes));
    const before = await page.$eval('#preview', (c) => c.toDataURL());
    const row = await page.$(`#issues tbody tr[data-code="${code}"]`);
    check(!!row && meshes > 0, `${name}: ${code} listed, preview has ${meshes} mesh(es)`);
    if (!row) continue;
    const offset = Number(await row.evaluate((r) => r.dataset.offset));
    await row.click();
    const hit = await page.$eval('#hex .hit', (s) => s.textContent).catch(() => null);
    const byte = fs.readFileSync(files.find((f) => path.basename(f) === name))[offset];
    check(hit === byte.toString(16).padStart(2, '0') && Number(await page.$eval('#hex', (p) => p.dataset.offset)) === offset,
      `${name}: hex view marks byte ${offset} (${hit})`);
    const highlighted = await page.$eval('#preview', (c) => Number(c.dataset.highlighted));
    const after = await page.$eval('#preview', (c) => c.toDataURL());
    check(highlighted === 1 && after !== before, `${name}: preview highlights ${highlighted} element, pixels changed`);
    check(await page.$eval('#explain', (e) => e.textContent.includes('default severity')), `${name}: ${code} explained`);
    await page.screenshot({ path: path.join(out, `page-${path.extname(name).slice(1)}.png`) });
  }


  // the structure view (modelcheck inspect): the file's tree as the native
  // `modelcheck inspect --output json` gives it; a selected issue marks its
  // node (the deepest one its path names); a byte of the hex view says its
  // path and field as `modelcheck inspect --at` does
  const inspectNative = (file, args = []) => {
    try { return execFileSync(native, ['inspect', ...args, file]).toString(); } catch (e) { return e.stdout.toString(); }
  };
  const countNodes = (n) => 1 + (n.children || []).reduce((k, c) => k + countNodes(c), 0);
  for (const [name, code] of [['normals_zero_2018.semodel', 'SEMODEL_NORMAL_ZERO'], ['samf_degenerate_face.aamf', 'SAMF_FACE_DEGENERATE'],
    ['nan_position_in_lzma.e3d', null]]) {
    const file = files.find((f) => path.basename(f) === name);
    const index = rows.findIndex((r) => r[0] === name);
    await page.click(`#files tbody tr[data-index="${index}"]`);
    const want = JSON.parse(inspectNative(file, ['-o', 'json'])).files[0];
    // the structure comes once the preview is drawn
    await page.waitForFunction((n) => document.querySelector('#structure').dataset.file === n, { timeout: 30000 }, name);
    const nodes = await page.$eval('#structure', (b) => Number(b.dataset.nodes));
    check(nodes === countNodes(want.structure) && nodes > 3, `${name}: structure view holds the ${nodes} nodes of modelcheck inspect (${countNodes(want.structure)})`);
    const meshes = await page.$$eval('#structure .kind-mesh tr', (trs) => trs.length);
    const wantMeshes = JSON.stringify(want.structure).split('"kind":"mesh"').length - 1;
    check(meshes === wantMeshes, `${name}: ${meshes} mesh row(s), as inspect (${wantMeshes})`);
    const rowsOfCode = code ? await page.$$(`#issues tbody tr[data-code="${code}"]`) : await page.$$('#issues tbody tr[data-code]');
    const row = rowsOfCode.find(Boolean);
    if (!row) { check(false, `${name}: an issue to select`); continue; }
    const [ipath, ioff] = await row.evaluate((r) => [r.dataset.path, Number(r.dataset.offset)]);
    await row.click();
    const marked = await page.$eval('#structure', (b) => b.dataset.node || null);
    const visible = await page.$eval('#structure .hit', (e) => e.getBoundingClientRect().height > 0).catch(() => false);
    check(!!marked && marked !== '/' && (ipath + '/').startsWith(marked === '/' ? '/' : `${marked}/`) && visible,
      `${name}: selecting ${ipath} marks its node ${marked} in the structure view (opened, visible)`);
    // a byte of the hex view: the one of the issue, then its neighbour
    const hexBytes = await page.$$('#hex span[data-off]');
    for (const b of [await page.$('#hex .hit'), hexBytes[hexBytes.length - 1]]) {
      if (!b) continue;
      const off = Number(await b.evaluate((s) => s.dataset.off));
      await b.hover();
      const shown = await page.$eval('#hex-at', (e) => e.dataset.path || '');
      const cli = /\n {2}path: {3}(\S*)/.exec(inspectNative(file, ['--at', String(off)]));
      check(cli && shown === cli[1], `${name}: byte ${off} under the pointer is ${shown} (inspect --at: ${cli && cli[1]})`);
    }
    await page.screenshot({ path: path.join(out, `structure-${path.extname(name).slice(1)}.png`) });
  }

  // the severity filter hides warnings; an override in the settings changes the verdict counts
  await page.click('.sev-filter[value="warning"]');
  const warningRows = await page.$$eval('#issues tbody tr', (trs) => trs.filter((t) => t.children[0].textContent === 'warning').length);
  check(warningRows === 0, 'severity filter: no warning shown once unchecked');
  await page.click('.sev-filter[value="warning"]');
  await page.click('#settings summary');
  await page.type('#opt-severity', 'SAMF_FACE_DEGENERATE=error');
  await page.$eval('#status', (e) => { e.textContent = ''; }); // the next 'validated' is the new run's
  await page.click('#apply');
  await page.waitForFunction(() => /file\(s\) validated in/.test(document.querySelector('#status').textContent), { timeout: 60000 });
  const samf = await page.$$eval('#files tbody tr', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent))
    .find((r) => r[0] === 'samf_degenerate_face.aamf'));
  check(samf && samf[2] === 'invalid' && Number(samf[3]) >= 1, `settings: SAMF_FACE_DEGENERATE=error makes samf_degenerate_face.aamf ${samf && samf[2]}`);
  await page.$eval('#opt-severity', (t) => { t.value = ''; });
  await page.$eval('#status', (e) => { e.textContent = ''; }); // the next 'validated' is the new run's
  await page.click('#apply');
  await page.waitForFunction(() => /file\(s\) validated in/.test(document.querySelector('#status').textContent), { timeout: 60000 });

  // the JSON download is the native report (paths are file names in the page)
  const cdp = await page.createCDPSession();
  await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloads });
  await page.click('#download-json');
  const target = path.join(downloads, 'modelcheck-report.json');
  for (let i = 0; i < 600 && !fs.existsSync(target); i++) await new Promise((r) => setTimeout(r, 100));
  const norm = (doc) => {
    for (const f of doc.files) f.path = path.basename(f.path);
    doc.files.sort((a, b) => (a.path < b.path ? -1 : 1));
    return JSON.stringify(doc);
  };
  const got = fs.existsSync(target) ? JSON.parse(fs.readFileSync(target, 'utf8')) : null;
  check(got && norm(got) === norm(nativeDoc), 'downloaded JSON report = native report (sha256 from WebCrypto included)');
  await page.click('#download-sarif');
  const sarifPath = path.join(downloads, 'modelcheck.sarif');
  for (let i = 0; i < 600 && !fs.existsSync(sarifPath); i++) await new Promise((r) => setTimeout(r, 100));
  let nativeSarif;
  try { nativeSarif = execFileSync(native, ['--no-config', '-o', 'sarif', ...files], { maxBuffer: 1 << 28 }); }
  catch (e) { nativeSarif = e.stdout; }
  const results = (doc) => doc.runs[0].results.map((r) => `${r.ruleId} ${r.level} ${JSON.stringify(r.locations[0].physicalLocation.region)}`).sort().join('\n');
  const sarif = fs.existsSync(sarifPath) ? JSON.parse(fs.readFileSync(sarifPath, 'utf8')) : null;
  const want = results(JSON.parse(nativeSarif));
  check(sarif && sarif.version === '2.1.0' && results(sarif) === want,
    `downloaded SARIF log: ${sarif ? sarif.runs[0].results.length : 0} results, as native (rule, level, region)`);

  // a folder picked (a fresh page): every file in it, paths under the folder's name, as the CLI walks it
  const page2 = await browser.newPage();
  page2.on('pageerror', (e) => errors.push(String(e)));
  await page2.goto(`file://${webDir}/index.html`);
  await page2.waitForSelector('body[data-ready="1"]', { timeout: 30000 });
  await (await page2.$('#pick-folder')).uploadFile(path.join(src, 'corpus/semodel'));
  await page2.waitForFunction(() => /file\(s\) validated in/.test(document.querySelector('#status').textContent), { timeout: 60000 });
  const walked = JSON.parse(nativeRun([path.join(src, 'corpus/semodel')]));
  const folderRows = await page2.$$eval('#files tbody tr', (trs) => trs.map((tr) => `${tr.children[0].textContent} ${tr.children[2].textContent}`));
  const wantRows = walked.files.map((f) => `${path.relative(path.join(src, 'corpus'), f.path)} ${f.valid ? 'valid' : 'invalid'}`);
  check(folderRows.join('\n') === wantRows.join('\n'), `folder picked: ${folderRows.length} rows, paths, order and verdicts as the CLI's walk (${wantRows.length})`);
  await page2.close();

  // dropped files and folders (issue 28's done-when: the page opened from
  // file:// validates a dropped file); each drop on a fresh page
  const t2 = Date.now();
  await dropTests(browser, errors);
  console.log(`drops checked in ${Date.now() - t2} ms`);

  // the README's picture: settings closed, a vertex selected
  await page.click('#settings summary');
  await page.click(`#files tbody tr[data-index="${rows.findIndex((r) => r[0] === 'samf_writer_stale_unused_indices.aamf')}"]`);
  await (await page.$$('#issues tbody tr[data-code="SAMF_SKIN_UNUSED_SLOT_INDEX"]'))[1].click();
  await (await page.$('#hex .hit')).hover(); // the byte's path and field under the hex view
  await page.screenshot({ path: path.join(out, 'page.png'), fullPage: true });
  check(outside.length === 0, `no request left the page${outside.length ? `: ${outside.slice(0, 3).join(' ')}` : ''}`);
  check(errors.length === 0, `no script error${errors.length ? `: ${errors[0]}` : ''}`);
} finally {
  await chrome.close();
  fs.rmSync(downloads, { recursive: true, force: true });
}
console.log(result.failures ? `FAIL: ${result.failures} check(s)` : 'PASS: the page');
process.exit(result.failures ? 1 : 0);
