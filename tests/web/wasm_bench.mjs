// Benchmark (not a test; docs/PERFORMANCE.md, "WebAssembly"). First the
// goal of issue 28: the validation of each file by the WebAssembly build
// (the module's checks over the bytes in its memory, in Node, without
// --liftoff-only: as the package's validate() and the page run it) against
// the native library's (mc_validate_path, `mc_bench --time`), each in a fresh
// process per round: the first call, which a command or a page's first file
// gets, and the median of the later ones; rounds interleaved, medians. Then
// the native command against modelcheck-wasm (Node) on the same files,
// interleaved, median of N rounds, as whole commands (start, read, validate,
// report): with --no-sha256 (the checks) and with the hash (native OpenSSL on
// a second thread; node:crypto after reading for the wasm). Also the size of
// what a browser loads, gzipped. Prints markdown tables and the load average
// before and after (the machine's other work shows in every time).
// Usage: node wasm_bench.mjs NATIVE WASM_WEB_DIR RUNS FILE...
// MC_BENCH=PATH: the native timer (default: NATIVE's build tree's
// tests/mc_bench). MC_WASM_BEFORE=DIR (another build's web dir, e.g. main's
// build/wasm/web) adds its package's command, in the same rounds, as a column.
// (tests/benchmark's mc_bench --mb 100 --dir DIR leaves 100 MB files in DIR.)
// Internal: node wasm_bench.mjs --time WASM_WEB_DIR RUNS FILE (one process's
// timing of the wasm side, printed as mc_bench --time prints it).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { pathToFileURL } from 'node:url';

const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// The wasm side of the goal, in this process: the file read into the
// module's memory as the package's run() reads it, then validated runs
// times (mcw_file_check: the checks, no report).
async function timeWasm(dir, n, file) {
  const { default: createCore } = await import(pathToFileURL(path.resolve(dir, 'package/modelcheck-core.mjs')).href);
  const M = await createCore();
  const opts = M._malloc(64);
  M.stringToUTF8('{"no_sha256":true}', opts, 64);
  const size = fs.statSync(file).size;
  const data = M._malloc(size);
  const fd = fs.openSync(file, 'r');
  for (let at = 0; at < size;) at += fs.readSync(fd, M.HEAPU8.subarray(data + at, data + size), 0, size - at, at);
  fs.closeSync(fd);
  const times = [];
  for (let i = 0; i < n; i++) {
    const r = M._mcw_begin(opts);
    const t0 = performance.now();
    if (M._mcw_file_check(r, data, size) < 0) throw new Error(`${file}: not validated`);
    times.push((performance.now() - t0) / 1e3);
    M._mcw_free(r);
  }
  return { first: times[0], warm: n > 1 ? median(times.slice(1)) : times[0] };
}
if (process.argv[2] === '--time') {
  const [dir, n, file] = process.argv.slice(3);
  console.log(JSON.stringify(await timeWasm(dir, Number(n), file)));
  process.exit(0);
}

const [native, webDir, runsText, ...files] = process.argv.slice(2);
const runs = Number(runsText) || 3;
const bin = path.join(webDir, 'package/bin/modelcheck-wasm.js');
const before = process.env.MC_WASM_BEFORE ? path.join(process.env.MC_WASM_BEFORE, 'package/bin/modelcheck-wasm.js') : null;
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');
console.log(`load average at the start: ${load()} (${os.cpus().length} cores)\n`);

function time(cmd, args) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 30 });
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0 && r.status !== 1) throw new Error(`${cmd} ${args.join(' ')}: exit ${r.status}: ${r.stderr}`);
  return { s, out: r.stdout };
}

const mcBench = process.env.MC_BENCH || path.join(path.dirname(native), '../tests/mc_bench');
if (!fs.existsSync(mcBench)) throw new Error(`${mcBench}: no mc_bench (set MC_BENCH)`);
const timed = (cmd, args) => {
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: exit ${r.status}`);
  return JSON.parse(r.stdout);
};
const self = new URL(import.meta.url).pathname;
const calls = 5; // validations per process: the first, then four warm
console.log('The validation (the goal: within 3x of native), each side in a fresh process per round:');
console.log('the first call, then the median of the next ' + (calls - 1) + ', medians of ' + runs + ' rounds\n');
console.log('| file | MB | native, 1st | wasm, 1st | ratio | native, later | wasm, later | ratio |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const file of files) {
  const mb = (fs.statSync(file).size / 1e6).toFixed(1);
  const nf = [], nw = [], wf = [], ww = [];
  for (let i = 0; i < runs; i++) {
    const a = timed(mcBench, ['--time', file, '--runs', String(calls)]);
    const b = timed('node', [self, '--time', webDir, String(calls), file]);
    nf.push(a.first); nw.push(a.warm); wf.push(b.first); ww.push(b.warm);
  }
  const ms = (x) => `${(x * 1e3).toFixed(1)} ms`;
  const [a, b, c, d] = [median(nf), median(wf), median(nw), median(ww)];
  console.log(`| ${path.basename(file)} | ${mb} | ${ms(a)} | ${ms(b)} | ${(b / a).toFixed(2)}x | ${ms(c)} | ${ms(d)} | ${(d / c).toFixed(2)}x |`);
}
console.log('');

const beforeHead = before ? ' before | ratio |' : '';
console.log(`| file | MB | native | wasm (Node ${process.version}) | ratio |${beforeHead}`);
console.log(`| --- | ---: | ---: | ---: | ---: |${before ? ' ---: | ---: |' : ''}`);
for (const file of files) {
  const mb = (fs.statSync(file).size / 1e6).toFixed(1);
  for (const [label, extra] of [['checks', ['--no-sha256']], ['with SHA-256', []]]) {
    const n = [];
    const w = [];
    const b = [];
    for (let i = 0; i < runs; i++) {
      const a = time(native, ['--no-config', '-o', 'json', ...extra, file]);
      const c = time('node', [bin, '-o', 'json', ...extra, file]);
      if (!a.out.equals(c.out)) throw new Error(`${file}: the reports differ`);
      n.push(a.s);
      w.push(c.s);
      if (before) b.push(time('node', [before, '-o', 'json', ...extra, file]).s);
    }
    const [mn, mw] = [median(n), median(w)];
    const cols = before ? ` ${median(b).toFixed(3)} s | ${(median(b) / mn).toFixed(2)}x |` : '';
    console.log(`| ${path.basename(file)}, ${label} | ${mb} | ${mn.toFixed(3)} s | ${mw.toFixed(3)} s | ${(mw / mn).toFixed(2)}x |${cols}`);
  }
}
console.log(`\nload average after the commands: ${load()}`);
// In process: where the whole command's time goes (the first call runs
// baseline code, later ones optimised code).
const { default: createCore } = await import(pathToFileURL(path.resolve(webDir, 'package/modelcheck-core.mjs')).href);
let t0 = performance.now();
const M = await createCore();
console.log(`\nIn process: instantiate ${(performance.now() - t0).toFixed(0)} ms`);
console.log('\n| file | read | copy into the heap | validate, 1st | validate, median of next ' + runs + ' |');
console.log('| --- | ---: | ---: | ---: | ---: |');
const opts = M._malloc(64);
M.stringToUTF8('{"no_sha256":true}', opts, 64);
for (const file of files) {
  t0 = performance.now();
  const bytes = fs.readFileSync(file);
  const read = performance.now() - t0;
  const times = [];
  let copy = 0;
  for (let i = 0; i <= runs; i++) {
    const r = M._mcw_begin(opts);
    t0 = performance.now();
    const p = M._malloc(bytes.length);
    M.HEAPU8.set(bytes, p);
    if (i === 0) copy = performance.now() - t0;
    t0 = performance.now();
    M._mcw_file(r, p, bytes.length, opts, 0, 0);
    times.push(performance.now() - t0);
    M._free(p);
    M._mcw_end(r);
    M._mcw_free(r);
  }
  console.log(`| ${path.basename(file)} | ${read.toFixed(0)} ms | ${copy.toFixed(0)} ms | ${times[0].toFixed(0)} ms | ${median(times.slice(1)).toFixed(0)} ms |`);
}
const startup = [];
const loaded = [];
for (let i = 0; i < runs; i++) {
  startup.push(time('node', [bin, '--version']).s);
  loaded.push(time('node', [bin, '--list-codes', '-o', 'json']).s);
}
console.log(`\nNode start alone (modelcheck-wasm --version): ${median(startup).toFixed(3)} s; with the module's load and its catalog (--list-codes): ${median(loaded).toFixed(3)} s`);
let total = 0;
for (const f of ['modelcheck-core.js', 'app.js', 'index.html']) {
  const bytes = fs.readFileSync(path.join(webDir, f));
  const gz = zlib.gzipSync(bytes, { level: 9 }).length;
  total += gz;
  console.log(`${f}: ${bytes.length} bytes, ${gz} gzipped`);
}
console.log(`the page, gzipped: ${total} bytes (goal: under 1 MB)`);
