#!/usr/bin/env node
// modelcheck-wasm [options] PATH...: the command line's main options and
// exit codes, over the WebAssembly build. It reads no .modelcheck.json (as
// --no-config) and validates one file at a time (-j is accepted, ignored).
import fs from 'node:fs';
import os from 'node:os';

// The module (about 0.9 MB of script) is loaded once a command needs it, after
// the hash worker has started: --help and --version do without it.
const lib = () => import('../index.js');

const USAGE = `usage: modelcheck-wasm [options] PATH...
Validates 3D model files (AEM, SEModel, AAMF/SAMF, E3D, NLM) with modelcheck
compiled to WebAssembly. PATH is a file, a directory (searched recursively;
unrecognised files are skipped) or - for standard input.

  -f, --format FMT          validate as FMT instead of detecting
  -o, --output KIND         text (default), json, sarif or sarif-github
  -n, --max-issues N        instances kept per issue code (default 10)
  -s, --severity CODE=LVL   set a code's severity (error|warning|info|hint|ignore)
  -i, --ignore CODE         drop a code
  -W, --werror              warnings make the exit code 1
  -q, --quiet               text: print nothing for valid files
      --weight-tolerance X  --unit-tolerance X  --quaternion-tolerance X
      --max-file-bytes N    larger files are rejected (default 4 GiB)
      --no-sha256           do not hash files
      --skip-unrecognized   skip named files no format recognises
      --list-codes          print the issue catalog (--output json) and exit
      --no-config           accepted: no configuration file is ever read
  -j, --jobs N              accepted, ignored (one file at a time)
  -V, --version             -h, --help

modelcheck-wasm inspect [-o text|json] [-f FMT] [--at OFFSET]... FILE...: what is
inside each file, as \`modelcheck inspect\` (modelcheck-wasm inspect --help).

Exit codes: 0 valid, 1 errors found, 2 usage error, 3 unreadable file or directory.
`;

const WITH_VALUE = {
  '-f': 'format', '--format': 'format', '-o': 'output', '--output': 'output', '-n': 'max-issues',
  '--max-issues': 'max-issues', '-s': 'severity', '--severity': 'severity', '-i': 'ignore',
  '--ignore': 'ignore', '-j': 'jobs', '--jobs': 'jobs', '--weight-tolerance': 'weight-tolerance',
  '--unit-tolerance': 'unit-tolerance', '--quaternion-tolerance': 'quaternion-tolerance',
  '--max-file-bytes': 'max-file-bytes', '--config': 'config',
};
const FLAGS = {
  '-W': 'werror', '--werror': 'werror', '-q': 'quiet', '--quiet': 'quiet', '--no-sha256': 'no-sha256',
  '--skip-unrecognized': 'skip-unrecognized', '--list-codes': 'list-codes', '--no-config': 'no-config',
  '-V': 'version', '--version': 'version', '-h': 'help', '--help': 'help',
};

class UsageError extends Error {}

// A count (integer) or, with real, a tolerance: what the CLI's strtoull and strtod take.
function number(text, what, lo, hi, real = false) {
  const form = real ? /^[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?$/ : /^[0-9]+$/;
  if (!form.test(text)) throw new UsageError(`${what}, got '${text}'`);
  const v = Number(text);
  if (!(v >= lo) || v > hi) throw new UsageError(`${what}, got '${text}'`);
  return v;
}

function parseArgs(argv) {
  const o = { output: 'text', severity: {}, ignore: [] };
  const paths = [];
  for (let i = 0; i < argv.length; i++) {
    let a = argv[i];
    if (a === '--') { paths.push(...argv.slice(i + 1)); break; }
    if (a === '-' || !a.startsWith('-')) { paths.push(a); continue; }
    let value;
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    if (eq > 0) { value = a.slice(eq + 1); a = a.slice(0, eq); }
    else if (!a.startsWith('--') && a.length > 2 && WITH_VALUE[a.slice(0, 2)]) { value = a.slice(2); a = a.slice(0, 2); }
    if (FLAGS[a] && value === undefined) { o[FLAGS[a]] = true; continue; }
    const key = WITH_VALUE[a];
    if (!key) throw new UsageError(`unknown option '${argv[i]}'`);
    if (value === undefined) {
      if (i + 1 >= argv.length) throw new UsageError(`option '${a}' needs a value`);
      value = argv[++i];
    }
    if (key === 'severity') {
      const at = value.indexOf('=');
      if (at < 0) throw new UsageError(`--severity expects CODE=LEVEL, got '${value}'`);
      o.severity[value.slice(0, at)] = value.slice(at + 1);
    } else if (key === 'ignore') {
      o.ignore.push(value);
    } else if (key === 'config') {
      throw new UsageError('--config is not supported by modelcheck-wasm (no configuration file is read)');
    } else {
      o[key] = value;
    }
  }
  return { o, paths };
}

function toOptions(o) {
  const opts = { output: o.output, severity: o.severity, ignore: o.ignore };
  if (!['text', 'json', 'sarif', 'sarif-github'].includes(o.output)) {
    throw new UsageError(`unknown output '${o.output}' (text, json, sarif or sarif-github)`);
  }
  if (o.format !== undefined) opts.format = o.format;
  if (o['max-issues'] !== undefined) {
    opts.maxIssues = number(o['max-issues'], '--max-issues expects a number from 0 to 1000000', 0, 1e6);
  }
  for (const [flag, key] of [['weight-tolerance', 'weightTolerance'], ['unit-tolerance', 'unitTolerance'],
    ['quaternion-tolerance', 'quaternionTolerance']]) {
    if (o[flag] !== undefined) opts[key] = number(o[flag], 'bad tolerance', 0, 1e30, true);
  }
  if (o['max-file-bytes'] !== undefined) {
    opts.maxFileBytes = number(o['max-file-bytes'], '--max-file-bytes expects a positive byte count', 1, 2 ** 64);
  }
  if (o.jobs !== undefined) number(o.jobs, '--jobs expects a number from 1 to 1024', 1, 1024);
  opts.noSha256 = !!o['no-sha256'];
  opts.werror = !!o.werror;
  opts.quiet = !!o.quiet;
  opts.skipUnrecognized = !!o['skip-unrecognized'];
  opts.workingDirectory = process.cwd();
  return opts;
}

// cli/walk.c's order: names sorted bytewise, hidden names skipped, depth
// first; a symbolic link to a directory is not entered.
function walk(dir, out, errors) {
  let names;
  try {
    names = fs.readdirSync(dir, { encoding: 'buffer' });
  } catch (e) {
    errors.push({ path: dir, error: e.code || 'EIO' });
    return;
  }
  names = names.filter((n) => n[0] !== 0x2e).sort(Buffer.compare);
  for (const n of names) {
    const p = dir.endsWith('/') ? dir + n.toString() : `${dir}/${n.toString()}`;
    let st;
    try { st = fs.lstatSync(p); } catch { out.push({ path: p }); continue; }
    if (st.isDirectory()) walk(p, out, errors);
    else if (st.isSymbolicLink()) {
      let target = null;
      try { target = fs.statSync(p); } catch { /* dangling: reported by path */ }
      if (!target || !target.isDirectory()) out.push({ path: p });
    } else out.push({ path: p });
  }
}

// The SHA-256 of large files, on a second thread as the native command's:
// a worker that reads the file itself (through a small buffer) and hashes it
// while the main thread reads it into the module and validates it. A file
// smaller than HASH_IN_WORKER_BYTES is hashed by run(), after reading it.
const HASH_IN_WORKER_BYTES = 8 << 20;
const HASHER = `const { parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const { createHash } = require('node:crypto');
const buffer = Buffer.allocUnsafe(1 << 20);
parentPort.on('message', ({ id, path, size }) => {
  let digest = null;
  let fd;
  try {
    fd = fs.openSync(path, 'r');
    const h = createHash('sha256');
    let at = 0;
    for (let n = 1; n > 0 && at <= size; at += n) {
      n = fs.readSync(fd, buffer, 0, buffer.length, at);
      h.update(buffer.subarray(0, n));
    }
    if (at === size) digest = h.digest();
  } catch {
    digest = null;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
  parentPort.postMessage({ id, digest });
});`;

function isLargeFile(p) {
  try { return p !== '-' && fs.statSync(p).size >= HASH_IN_WORKER_BYTES; } catch { return false; }
}

let Worker = null; // node:worker_threads' class, when files are hashed and there are two cores or more
let hasher = null;
function startHasher() {
  if (!hasher) {
    const worker = new Worker(HASHER, { eval: true });
    hasher = { worker, next: 0, waiting: new Map() };
    worker.on('message', ({ id, digest }) => {
      hasher.waiting.get(id)(digest ? new Uint8Array(digest.buffer, digest.byteOffset, digest.length) : null);
      hasher.waiting.delete(id);
      if (!hasher.waiting.size) worker.unref(); // the process may end with it idle
    });
    // a worker that failed or ended: run() hashes each file itself
    const gone = () => {
      hasher.gone = true;
      for (const done of hasher.waiting.values()) done(null);
      hasher.waiting.clear();
    };
    worker.on('error', gone);
    worker.on('exit', gone);
    worker.unref();
  }
}

function hashInWorker(path, size) {
  startHasher();
  if (hasher.gone) return Promise.resolve(null);
  const id = hasher.next++;
  hasher.worker.ref();
  hasher.worker.postMessage({ id, path, size });
  return new Promise((resolve) => hasher.waiting.set(id, resolve));
}

const READ_IN_TWO_BYTES = 8 << 20;

// view filled from the file at offset `at`: the bytes read (fewer at its end)
function readSync(fd, view, at) {
  let n = 0;
  for (let got = 1; n < view.length && got > 0; n += got) got = fs.readSync(fd, view, n, view.length - n, at + n);
  return n;
}

function readAsync(fd, view, at) {
  return new Promise((resolve, reject) => {
    let n = 0;
    const next = () => fs.read(fd, view, n, view.length - n, at + n, (e, got) => {
      if (e) reject(e);
      else if ((n += got) < view.length && got > 0) next();
      else resolve(n);
    });
    next();
  });
}

// A file opened now and read later, by run(), straight into the module's
// memory (no copy of 100 MB through a Buffer). Standard input is read whole.
function openFile(path, hashing) {
  if (path === '-') return readFile(path);
  let fd;
  try {
    fd = fs.openSync(path, 'r');
    const st = fs.fstatSync(fd);
    if (st.isDirectory()) throw Object.assign(new Error('EISDIR'), { code: 'EISDIR' });
    return {
      path,
      size: st.size,
      sha256: hashing && Worker && st.size >= HASH_IN_WORKER_BYTES ? hashInWorker(path, st.size) : undefined,
      // A large file's second half is read on libuv's thread pool while this
      // thread reads the first: each page of the module's memory is new, and
      // the kernel's work of mapping it (most of a read's time) is shared by
      // two cores.
      async readInto(view) {
        const half = view.length >= READ_IN_TWO_BYTES ? view.length >>> 1 : view.length;
        const tail = half < view.length ? readAsync(fd, view.subarray(half), half) : Promise.resolve(0);
        try {
          const n = readSync(fd, view.subarray(0, half), 0);
          const m = await tail;
          return n === half ? n + m : n;
        } finally {
          await tail.catch(() => 0); // no read into the memory once this returns
          fs.closeSync(fd);
        }
      },
    };
  } catch (e) {
    if (fd !== undefined) fs.closeSync(fd);
    return { path, error: e.code || 'EIO' };
  }
}

function readFile(path) {
  try {
    const bytes = path === '-' ? fs.readFileSync(0) : fs.readFileSync(path);
    return { path, bytes };
  } catch (e) {
    return { path, error: e.code || 'EIO' };
  }
}

function isDirectory(p) {
  try { return p !== '-' && fs.statSync(p).isDirectory(); } catch { return false; }
}

const INSPECT_USAGE = `usage: modelcheck-wasm inspect [options] FILE...
Shows what is inside each file, as \`modelcheck inspect\` does: format and layout,
the section map, meshes, materials, textures, the skeleton, animations.

  -o, --output KIND         text (default) or json
  -f, --format FMT          read as FMT instead of detecting
      --at OFFSET           the path, field and value at a byte, with its record as
                            annotated hex (BLOCK+OFFSET inside an E3D LZMA block);
                            repeat it for several bytes of one FILE
  -h, --help                this text
(--extract-block is the native command's only.)
`;

function parseInspectArgs(argv, o) {
  for (let i = 0; i < argv.length; i++) {
    let a = argv[i];
    let value;
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    if (eq > 0) { value = a.slice(eq + 1); a = a.slice(0, eq); }
    const next = () => {
      const v = value !== undefined ? value : argv[++i];
      if (v === undefined) throw new UsageError(`option '${a}' needs a value`);
      return v;
    };
    if (a === '-h' || a === '--help') {
      o.help = true;
    } else if (a === '-o' || a === '--output') {
      const v = next();
      if (v !== 'json' && v !== 'text') throw new UsageError('--output is text or json');
      o.json = v === 'json';
    } else if (a === '-f' || a === '--format') {
      o.format = next();
      if (!['aem', 'semodel', 'aamf', 'e3d', 'nlm'].includes(o.format)) throw new UsageError('unknown --format');
    } else if (a === '--at') {
      o.at.push(next());
    } else if (a === '--') {
      o.files.push(...argv.slice(i + 1));
      break;
    } else if (a.startsWith('-') && a !== '-') {
      throw new UsageError(`unknown option '${argv[i]}'`);
    } else {
      o.files.push(a);
    }
  }
}

// modelcheck inspect over the WebAssembly build: the same bytes and exit codes.
async function inspectMain(argv) {
  const o = { json: false, at: [], files: [] };
  const usage = (msg) => {
    process.stderr.write(`modelcheck inspect: ${msg}\ntry 'modelcheck inspect --help'\n`);
    return 2;
  };
  try {
    parseInspectArgs(argv, o);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    return usage(e.message);
  }
  if (o.help) { process.stdout.write(INSPECT_USAGE); return 0; }
  if (o.files.length < 1) return usage('no FILE');
  if (o.at.length && o.files.length !== 1) return usage('--at and --extract-block take one FILE');
  const document = o.json && !o.at.length;
  let rc = 0;
  let first = true;
  const out = [];
  for (const name of o.files) {
    const f = readFile(name);
    if (f.error) {
      process.stderr.write(`modelcheck inspect: ${name}: cannot open (${f.error})\n`);
      rc = Math.max(rc, 3);
      continue;
    }
    const ins = await (await lib()).openInspector(f.bytes, { path: name, format: o.format });
    try {
      if (ins.status !== 0) {
        process.stderr.write(`modelcheck inspect: ${name}: cannot inspect\n`);
        rc = Math.max(rc, 3);
      } else if (o.at.length) {
        for (const a of o.at) {
          try {
            out.push(ins.atText(a));
          } catch (e) {
            process.stdout.write(out.join(''));
            process.stderr.write(`${e.message}\n`);
            return 2;
          }
        }
      } else {
        out.push(document ? ins.fileJsonText(first) : ins.text());
        first = false;
        rc = Math.max(rc, ins.valid ? 0 : 1);
      }
    } finally {
      ins.close();
    }
  }
  if (document) {
    const { inspectFrame } = await lib();
    out.unshift(await inspectFrame(0));
    out.push(await inspectFrame(1));
  }
  process.stdout.write(out.join(''));
  return rc;
}

async function main(argv) {
  if (argv[0] === 'inspect') return inspectMain(argv.slice(1));
  let parsed;
  let opts;
  try {
    parsed = parseArgs(argv);
    opts = toOptions(parsed.o);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`modelcheck-wasm: ${e.message} (try --help)\n`);
    return 2;
  }
  const { o, paths } = parsed;
  if (o.help) { process.stdout.write(USAGE); return 0; }
  if (o.version) {
    const pkg = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url)));
    process.stdout.write(`modelcheck-wasm ${pkg.version}\n`);
    return 0;
  }
  if (o['list-codes']) {
    process.stdout.write(`${await (await lib()).catalogText()}\n`);
    return 0;
  }
  if (paths.length === 0) {
    process.stderr.write('modelcheck-wasm: no PATH given (try --help)\n');
    return 2;
  }
  const hashing = !opts.noSha256 && opts.output !== 'text';
  // one core: a second thread would only take turns with this one
  if (hashing && os.availableParallelism() > 1) ({ Worker } = await import('node:worker_threads'));
  // the worker starts (a second thread boots) while the module loads
  if (Worker && paths.some(isLargeFile)) startHasher();
  const { run } = await lib();
  // read one file at a time, as the report is written (memory does not grow with the files)
  function* files() {
    for (const p of paths) {
      let list = [{ path: p }];
      let fromWalk = false;
      if (isDirectory(p)) {
        const errors = [];
        list = [];
        walk(p, list, errors);
        yield* errors;
        fromWalk = true;
      }
      for (const { path } of list) {
        const f = openFile(path, hashing);
        if (f.error) process.stderr.write(`modelcheck-wasm: ${f.path}: cannot open (${f.error})\n`);
        yield { ...f, fromWalk };
      }
    }
  }
  let result;
  try {
    result = await run(files(), opts);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    process.stderr.write(`${e.message}\n`);
    return /unknown|bad|expects/.test(e.message) ? 2 : 3;
  }
  process.stdout.write(result.text);
  return result.exitCode;
}

process.exitCode = await main(process.argv.slice(2));
