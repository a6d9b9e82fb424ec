// modelcheck in JavaScript: the C validator compiled to WebAssembly
// (web/src/mc_wasm.c), the same reports as the command line. Node 20+ and
// browsers; ES module; no dependency. Types: index.d.ts.
import createCore, { wasmDataURI } from './modelcheck-core.mjs';

let corePromise = null;
let nodeCreateHash = null; // node:crypto's createHash, in Node, once a file is hashed
const inNode = typeof process === 'object' && process.versions && process.versions.node && typeof Buffer === 'function';

/** The WebAssembly instance, made on first use and then shared. */
function core() {
  if (!corePromise) {
    const options = {};
    // Node: the module's bytes decoded here, at once (its loader would fetch
    // the data: URI through Node's fetch, about 0.2 s); browsers fetch it.
    if (inNode) options.wasmBinary = Buffer.from(wasmDataURI.slice(wasmDataURI.indexOf(',') + 1), 'base64');
    corePromise = createCore(options);
  }
  return corePromise;
}

// Node: node:crypto's hash, which reads the bytes where they are (WebCrypto's
// copies them first, on this thread: twice the time for 100 MB), loaded when
// a file is first hashed (not with --no-sha256).
async function platformHash() {
  if (inNode && !nodeCreateHash) nodeCreateHash = (await import('node:crypto')).createHash;
}

const OPTION_KEYS = {
  format: 'format', output: 'output', maxIssues: 'max_issues', severity: 'severity', ignore: 'ignore',
  weightTolerance: 'weight_tolerance', unitTolerance: 'unit_tolerance',
  quaternionTolerance: 'quaternion_tolerance', maxFileBytes: 'max_file_bytes', noSha256: 'no_sha256',
  werror: 'werror', quiet: 'quiet', skipUnrecognized: 'skip_unrecognized',
  workingDirectory: 'working_directory',
};
const DEFAULT_MAX_FILE_BYTES = 4294967296;

function optionsJson(options) {
  const o = {};
  for (const [k, v] of Object.entries(options || {})) {
    if (k === 'path') continue;
    if (!(k in OPTION_KEYS)) throw new TypeError(`modelcheck: unknown option '${k}'`);
    if (v !== undefined) o[OPTION_KEYS[k]] = v;
  }
  return JSON.stringify(o);
}

// SHA-256 by the platform: node:crypto in Node, WebCrypto in browsers.
// The bytes are read (copied by WebCrypto) before this returns: the caller
// may free or reuse them at once.
function sha256(bytes) {
  if (nodeCreateHash) return Promise.resolve(new Uint8Array(nodeCreateHash('sha256').update(bytes).digest()));
  const subtle = globalThis.crypto && globalThis.crypto.subtle;
  if (subtle) return subtle.digest('SHA-256', bytes).then((d) => new Uint8Array(d));
  return Promise.reject(new Error('modelcheck: no SHA-256 here (no WebCrypto): pass noSha256'));
}

function cString(M, s) {
  const n = M.lengthBytesUTF8(s) + 1;
  const p = M._malloc(n);
  if (!p) throw new RangeError('modelcheck: out of memory');
  M.stringToUTF8(s, p, n);
  return p;
}

function asBytes(b) {
  if (b instanceof Uint8Array) return b;
  if (b instanceof ArrayBuffer) return new Uint8Array(b);
  if (ArrayBuffer.isView(b)) return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  throw new TypeError('modelcheck: bytes must be a Uint8Array, an ArrayBuffer or a typed array');
}

/**
 * Validates a list of files into one report, as `modelcheck PATH...` does.
 * files: [{path, bytes, fromWalk?}] or [{path, error: 'ENOENT'}] (a file
 * the caller could not read), or [{path, size, readInto}]: readInto(view)
 * fills view (size bytes of the module's memory) and returns the bytes it
 * read, or throws an error with an errno code (the file is then unreadable). Returns {text, exitCode}: text is what the CLI
 * writes on standard output for options.output (json by default).
 */
export async function run(files, options = {}) {
  const M = await core();
  const wantHash = !options.noSha256 && (options.output || 'json') !== 'text';
  const limit = options.maxFileBytes || DEFAULT_MAX_FILE_BYTES;
  const opts = cString(M, optionsJson(options));
  const r = M._mcw_begin(opts);
  M._free(opts);
  if (!r) throw new RangeError('modelcheck: out of memory');
  try {
    const refused = M.UTF8ToString(M._mcw_error(r));
    if (refused) throw new RangeError(`modelcheck: ${refused}`);
    for (const f of files) {
      const path = cString(M, String(f.path));
      try {
        if (f.error !== undefined) {
          const e = cString(M, String(f.error));
          M._mcw_unreadable(r, path, e);
          M._free(e);
          continue;
        }
        const bytes = f.readInto ? null : asBytes(f.bytes);
        const size = bytes ? bytes.length : f.size;
        // malloc(0) may be NULL: one byte keeps an empty file distinct from out of memory
        const data = M._malloc(Math.max(size, 1));
        if (!data) throw new RangeError(`modelcheck: out of memory for ${f.path}`);
        let length = size;
        if (bytes) {
          M.HEAPU8.set(bytes, data);
        } else {
          // read straight into the module's memory: no second copy of the file
          try {
            length = f.readInto(M.HEAPU8.subarray(data, data + size));
          } catch (e) {
            M._free(data);
            if (!e || typeof e.code !== 'string') throw e;
            const code = cString(M, e.code);
            M._mcw_unreadable(r, path, code);
            M._free(code);
            continue;
          }
        }
        // In a browser the hash runs while the file is validated, as the
        // command's second thread: WebCrypto copies the bytes when called
        // (before the module's memory can move) and hashes them off this thread.
        const hashing = wantHash && length <= limit;
        if (hashing) await platformHash(); // before the view below: nothing grows the memory meanwhile
        const digesting = hashing ? sha256(M.HEAPU8.subarray(data, data + length)) : null;
        const verdict = M._mcw_file_check(r, data, length);
        M._free(data);
        const digest = digesting ? await digesting : null;
        if (verdict < 0) throw new RangeError(`modelcheck: out of memory validating ${f.path}`);
        const hash = digest ? M._malloc(32) : 0;
        if (digest && !hash) throw new RangeError(`modelcheck: out of memory for ${f.path}`);
        if (digest) M.HEAPU8.set(digest, hash);
        M._mcw_file_report(r, path, hash, f.fromWalk ? 1 : 0);
        if (hash) M._free(hash);
      } finally {
        M._free(path);
      }
    }
    const text = M._mcw_end(r);
    if (!text) throw new RangeError('modelcheck: out of memory writing the report');
    return { text: M.UTF8ToString(text), exitCode: M._mcw_exit_code(r) };
  } finally {
    M._mcw_free(r);
  }
}

/**
 * Validates one file's bytes: the report the CLI writes with --output json
 * (reports/schema/report.schema.json), parsed. options.path names the file
 * in the report ("-" by default, as standard input).
 */
export async function validate(bytes, options = {}) {
  const { text } = await run([{ path: options.path ?? '-', bytes }], { ...options, output: 'json' });
  return JSON.parse(text);
}

/** The issue catalog as `modelcheck --list-codes --output json` prints it: text. */
export async function catalogText() {
  const M = await core();
  const p = M._mcw_catalog();
  if (!p) throw new RangeError('modelcheck: out of memory');
  const text = M.UTF8ToString(p);
  M._free(p);
  return text;
}

/** The issue catalog, parsed. */
export async function catalog() {
  return JSON.parse(await catalogText());
}

/**
 * An inspection of one file held in the module (modelcheck inspect): its
 * bytes are copied in once, and any number of byte lookups follow. Call
 * close() when done. options: {path, format}.
 */
export async function openInspector(bytes, options = {}) {
  const M = await core();
  const b = asBytes(bytes);
  const data = M._malloc(Math.max(b.length, 1));
  if (!data) throw new RangeError('modelcheck: out of memory');
  M.HEAPU8.set(b, data);
  const fmt = cString(M, options.format || '');
  const w = M._mcw_inspect_open(data, b.length, fmt); // owns data from here
  M._free(fmt);
  if (!w) throw new RangeError(`modelcheck: unknown format or out of memory`);
  const name = String(options.path ?? '-');
  const status = M._mcw_inspect_status(w);
  let closed = false;
  const call = (fn, ...strings) => {
    if (closed) throw new Error('modelcheck: the inspector is closed');
    const ptrs = strings.map((s) => (typeof s === 'string' ? cString(M, s) : s));
    try {
      return fn(w, ...ptrs);
    } finally {
      strings.forEach((s, i) => typeof s === 'string' && M._free(ptrs[i]));
    }
  };
  const need = (p, what) => {
    if (!p) throw new RangeError(`modelcheck: out of memory ${what}`);
    return M.UTF8ToString(p);
  };
  return {
    /** 0 when the file could be inspected (else the tree is empty). */
    status,
    valid: M._mcw_inspect_valid(w) === 1,
    /** The file's object of the JSON document, as text (first: no comma). */
    fileJsonText(first = true) {
      return need(call(M._mcw_inspect_report, name, 1, first ? 1 : 0), 'writing the structure');
    },
    /** The document `modelcheck inspect --output json FILE` writes. */
    jsonText() {
      return M.UTF8ToString(M._mcw_inspect_frame(0)) + this.fileJsonText(true) + M.UTF8ToString(M._mcw_inspect_frame(1));
    },
    /** What `modelcheck inspect FILE` prints. */
    text() {
      return need(call(M._mcw_inspect_report, name, 0, 1), 'writing the structure');
    },
    /**
     * The byte at `at` (a number, or --at's text: "0x23c", "0xc+0x18e124",
     * "lzma@0xc+0x18e124"): {offset, space, path, node, field, record}, or
     * null when there is no such byte.
     */
    at(at) {
      return JSON.parse(need(call(M._mcw_inspect_at_json, String(at)), 'locating a byte'));
    },
    /** What `modelcheck inspect --at AT FILE` prints; throws its refusal. */
    atText(at) {
      const p = call(M._mcw_inspect_at_text, name, String(at));
      if (!p) throw new RangeError(M.UTF8ToString(M._mcw_inspect_err(w)).trim() || 'modelcheck: out of memory');
      return M.UTF8ToString(p);
    },
    close() {
      if (!closed) M._mcw_inspect_free(w);
      closed = true;
    },
  };
}

/** The JSON document of `modelcheck inspect` around its files: its head (0) or tail (1). */
export async function inspectFrame(end) {
  const M = await core();
  return M.UTF8ToString(M._mcw_inspect_frame(end ? 1 : 0));
}

/**
 * What is inside one file: the document `modelcheck inspect --output json`
 * writes (reports/schema/inspect.schema.json), parsed. options: {path, format}.
 */
export async function inspect(bytes, options = {}) {
  const ins = await openInspector(bytes, options);
  try {
    if (ins.status !== 0) throw new RangeError('modelcheck: the file could not be inspected');
    return JSON.parse(ins.jsonText());
  } finally {
    ins.close();
  }
}

/** The byte at `at` in one file, as inspect's --at finds it: see openInspector's at(). */
export async function at(bytes, where, options = {}) {
  const ins = await openInspector(bytes, options);
  try {
    return ins.at(where);
  } finally {
    ins.close();
  }
}
