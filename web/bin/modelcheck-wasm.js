#!/usr/bin/env node
// modelcheck-wasm [options] PATH...: the command line's main options and
// exit codes, over the WebAssembly build. It reads no .modelcheck.json (as
// --no-config) and validates one file at a time (-j is accepted, ignored).
import fs from 'node:fs';
import v8 from 'node:v8';

// Liftoff, V8's baseline compiler of WebAssembly, only: a command validates
// once and ends, and the optimising compiler V8 would start meanwhile on the
// hot validator functions (in the background, for the calls after this one)
// takes the second core and delays the end (docs/PERFORMANCE.md, "WebAssembly").
// Set before the module is compiled (on its first use).
v8.setFlagsFromString('--liftoff-only');

// The module (about 0.9 MB of script) is loaded once a command needs it:
// --help and --version do without it.
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

// A file opened now and read later, by run(), straight into the module's
// memory (no copy of 100 MB through a Buffer). Standard input is read whole.
function openFile(path) {
  if (path === '-') return readFile(path);
  let fd;
  try {
    fd = fs.openSync(path, 'r');
    const st = fs.fstatSync(fd);
    if (st.isDirectory()) throw Object.assign(new Error('EISDIR'), { code: 'EISDIR' });
    return {
      path,
      size: st.size,
      readInto(view) {
        try {
          let n = 0;
          for (let got = 1; n < view.length && got > 0; n += got) got = fs.readSync(fd, view, n, view.length - n, n);
          return n;
        } finally {
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
        const f = openFile(path);
        if (f.error) process.stderr.write(`modelcheck-wasm: ${f.path}: cannot open (${f.error})\n`);
        yield { ...f, fromWalk };
      }
    }
  }
  const { run } = await lib();
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
