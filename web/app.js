// The page (index.html): files dropped or picked are validated by
// modelcheck-core.js (the C validator in WebAssembly, web/src/mc_wasm.c),
// each file's report is the JSON `modelcheck --output json` writes; the 3D
// preview comes from the reference loader (web/src/mc_wasm_model.c) and is
// drawn by the small WebGL renderer below; the structure view and the
// byte lookups of the hex view are `modelcheck inspect`'s (mcw_inspect_*). A classic script, not a module:
// Chromium refuses module scripts on pages opened from file://.
'use strict';

(() => {
  const $ = (sel) => document.querySelector(sel);
  const state = {
    M: null,
    catalog: new Map(), // code -> catalog entry
    files: [], // {path, bytes, digest, fromWalk, report}
    skipped: 0,
    options: {},
    selected: -1,
    issue: null, // {issue, instance}
    model: null, // {meshes: [{positions, indices, lines}], reason}
    inspector: 0, // the selected file's mcw_inspect (its bytes held in the module)
    structure: null, // that file's object of `modelcheck inspect --output json`
    hexAt: null, // the byte the hex view shows when no issue is selected
  };

  const STRUCTURE_MAX_CHILDREN = 1000; // per node shown; the rest are counted

  const PREVIEW_MAX_INDICES = 3000000; // a million triangles

  // ---- the WebAssembly entry ----

  function cString(s) {
    const M = state.M;
    const n = M.lengthBytesUTF8(s) + 1;
    const p = M._malloc(n);
    if (!p) throw new RangeError('out of memory');
    M.stringToUTF8(s, p, n);
    return p;
  }

  async function sha256(bytes) {
    return new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  }

  // One run of the CLI's report over files ({path, bytes, digest, fromWalk}).
  function runReport(files, options, output) {
    const M = state.M;
    const opts = cString(JSON.stringify({ ...options, output }));
    const r = M._mcw_begin(opts);
    M._free(opts);
    if (!r) throw new RangeError('out of memory');
    try {
      const refused = M.UTF8ToString(M._mcw_error(r));
      if (refused) throw new RangeError(refused);
      for (const f of files) {
        const path = cString(f.path);
        const data = M._malloc(Math.max(f.bytes.length, 1));
        const hash = f.digest ? M._malloc(32) : 0;
        if (!data || (f.digest && !hash)) throw new RangeError(`out of memory for ${f.path}`);
        M.HEAPU8.set(f.bytes, data);
        if (f.digest) M.HEAPU8.set(f.digest, hash);
        M._mcw_file(r, data, f.bytes.length, path, hash, f.fromWalk ? 1 : 0);
        M._free(data);
        if (hash) M._free(hash);
        M._free(path);
      }
      const text = M._mcw_end(r);
      if (!text) throw new RangeError('out of memory writing the report');
      return M.UTF8ToString(text);
    } finally {
      M._mcw_free(r);
    }
  }

  function loadModel(f) {
    const M = state.M;
    const formats = { aem: 1, semodel: 2, aamf: 3, e3d: 4, nlm: 5 };
    const format = formats[f.report.format];
    if (!format) return { meshes: [], reason: 'no format recognised' };
    const data = M._malloc(Math.max(f.bytes.length, 1));
    const reason = M._malloc(192);
    M.HEAPU8.set(f.bytes, data);
    M.HEAPU8[reason] = 0;
    const m = M._mcw_load(data, f.bytes.length, format, reason);
    const out = { meshes: [], reason: m ? '' : M.UTF8ToString(reason) };
    M._free(data);
    M._free(reason);
    if (!m) return out;
    // the preview's budget: meshes past it are left out (and said so)
    let budget = PREVIEW_MAX_INDICES;
    out.total = M._mcw_mesh_count(m);
    // E3D's axes are left-handed (e3d.adoc, "Coordinate system": z goes away
    // from the viewer), WebGL's right-handed: the preview mirrors z for it
    out.leftHanded = f.report.format === 'e3d';
    for (let i = 0, n = out.total; i < n; i++) {
      const nv = M._mcw_mesh_vertex_count(m, i);
      const ni = M._mcw_mesh_index_count(m, i);
      if (ni > budget) break;
      budget -= ni;
      // a mesh a node or bone places whole (an E3D node's transform, an AEM
      // extra bone) where its rest pose puts it, not in its own space
      const placed = M._mcw_mesh_placed(m, i);
      const pp = placed || M._mcw_mesh_positions(m, i);
      const ip = M._mcw_mesh_indices(m, i);
      const positions = pp ? new Float32Array(M.HEAPF32.buffer, pp, nv * 3).slice() : new Float32Array(0);
      if (placed) M._free(placed);
      out.meshes.push({
        positions,
        indices: ip ? new Uint32Array(M.HEAPU32.buffer, ip, ni).slice() : new Uint32Array(0),
        lines: !!M._mcw_mesh_lines(m, i),
      });
    }
    M._mcw_model_free(m);
    return out;
  }

  // ---- inspection: the structure tree and the byte under the pointer ----

  function closeInspector() {
    if (state.inspector) state.M._mcw_inspect_free(state.inspector);
    state.inspector = 0;
    state.structure = null;
  }

  // The file's object of `modelcheck inspect --output json FILE` (the same
  // bytes: reports/render/report_inspect.c), nodes given their parent and path.
  function openInspector(f) {
    closeInspector();
    const M = state.M;
    const data = M._malloc(Math.max(f.bytes.length, 1));
    if (!data) return null;
    M.HEAPU8.set(f.bytes, data);
    const fmt = cString(state.options.format || '');
    state.inspector = M._mcw_inspect_open(data, f.bytes.length, fmt); // owns data
    M._free(fmt);
    if (!state.inspector || M._mcw_inspect_status(state.inspector) !== 0) return null;
    const path = cString(f.path);
    const text = M._mcw_inspect_report(state.inspector, path, 1, 1);
    M._free(path);
    if (!text) return null;
    const doc = JSON.parse(M.UTF8ToString(text));
    // parents and paths, without recursion (E3D blocks nest deep)
    const stack = [[doc.structure, null]];
    while (stack.length) {
      const [n, parent] = stack.pop();
      n.parent = parent;
      n.path = !parent ? '/' : n.name === '' ? parent.path : `${parent.path === '/' ? '' : parent.path}/${n.name}`;
      for (const c of n.children || []) stack.push([c, n]);
    }
    state.structure = doc;
    return doc;
  }

  // --at's facts for a byte of the file: {path, node, field, record}, or null.
  function byteAt(offset) {
    if (!state.inspector) return null;
    const at = cString(String(offset));
    const p = state.M._mcw_inspect_at_json(state.inspector, at);
    state.M._free(at);
    return p ? JSON.parse(state.M.UTF8ToString(p)) : null;
  }

  // ---- files in ----

  function readEntries(reader) {
    return new Promise((resolve, reject) => reader.readEntries(resolve, reject));
  }

  // A dropped folder through its FileSystemEntry (Firefox, Safari; Chromium
  // on http:), depth first; names starting with '.' skipped, as the CLI walks.
  async function walkEntry(entry, prefix, out) {
    if (entry.name.startsWith('.') && prefix) return;
    if (entry.isFile) {
      const file = await new Promise((resolve, reject) => entry.file(resolve, reject));
      out.push({ file, path: prefix + entry.name, fromWalk: true });
    } else if (entry.isDirectory) {
      const reader = entry.createReader();
      for (let batch = await readEntries(reader); batch.length; batch = await readEntries(reader)) {
        for (const e of batch) await walkEntry(e, `${prefix}${entry.name}/`, out);
      }
    }
  }

  // A dropped folder through its FileSystemDirectoryHandle (Chromium): the
  // one way Chromium reads a folder dropped on a page opened from file://
  // (its FileSystemEntry refuses there with an EncodingError).
  async function walkHandle(handle, prefix, out) {
    if (handle.name.startsWith('.') && prefix) return;
    if (handle.kind === 'file') {
      out.push({ file: await handle.getFile(), path: prefix + handle.name, fromWalk: true });
    } else {
      for await (const child of handle.values()) await walkHandle(child, `${prefix}${handle.name}/`, out);
    }
  }

  // What a drop holds, read while the event lasts (its items are gone after
  // the handler's first await): a dropped file is read as the File the item
  // gives (Chromium refuses entry.file() on a page opened from file://); a
  // folder is walked through its handle, else its entry. Returns the files
  // and the names of the folders that could not be read.
  async function droppedFiles(dataTransfer) {
    const items = [...dataTransfer.items].filter((i) => i.kind === 'file').map((i) => ({
      file: i.getAsFile(),
      entry: i.webkitGetAsEntry ? i.webkitGetAsEntry() : null,
      handle: i.getAsFileSystemHandle ? i.getAsFileSystemHandle().catch(() => null) : null,
    }));
    if (!items.length) for (const file of dataTransfer.files) items.push({ file, entry: null, handle: null });
    const out = [];
    const unread = [];
    for (const { file, entry, handle } of items) {
      if (!entry || !entry.isDirectory) {
        if (file) out.push({ file, path: file.name, fromWalk: false });
        continue;
      }
      const found = [];
      try {
        const h = await handle;
        if (h && h.kind === 'directory') await walkHandle(h, '', found);
        else await walkEntry(entry, '', found);
        out.push(...found);
      } catch (err) {
        unread.push(entry.name);
      }
    }
    return { out, unread };
  }

  const byBytes = (a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

  async function addFiles(list) {
    state.t0 = performance.now(); // for the timings below (tests/web/page_bench.mjs)
    setStatus(`Reading ${list.length} file(s)…`);
    list.sort(byBytes);
    try {
      for (const { file, path, fromWalk } of list) {
        const bytes = new Uint8Array(await file.arrayBuffer());
        state.files.push({ path, bytes, fromWalk, digest: await sha256(bytes), report: null });
      }
      validateAll();
    } catch (err) {
      // the module's memory ends at 2 GB: a larger file cannot be validated here
      setStatus(`Could not validate: ${err.message || err} (the page takes files up to about 1.5 GB; the command has no such limit).`);
    }
  }

  function validateAll() {
    const t0 = performance.now();
    const kept = [];
    state.skipped = 0;
    for (const f of state.files) {
      const doc = JSON.parse(runReport([f], state.options, 'json'));
      f.report = doc.files[0] || null;
      if (f.report) kept.push(f);
      else state.skipped++;
    }
    state.files = kept;
    state.selected = -1;
    state.issue = null;
    closeInspector();
    renderFiles();
    const ms = Math.round(performance.now() - t0);
    // from the files given to the table shown: read, hashed, validated
    document.body.dataset.tableMs = Math.round(performance.now() - state.t0);
    delete document.body.dataset.previewMs;
    setStatus(`${state.files.length} file(s) validated in ${ms} ms${state.skipped ? `, ${state.skipped} skipped (no format recognised)` : ''}.`);
    // the table first: the first file's preview (a model to load) after it is shown
    if (state.files.length) requestAnimationFrame(() => setTimeout(() => { if (state.selected < 0) selectFile(0); }, 0));
  }

  function setStatus(text) {
    $('#status').textContent = text;
  }

  // ---- rendering ----

  function el(tag, props, ...children) {
    const e = document.createElement(tag);
    Object.assign(e, props || {});
    for (const c of children) e.append(c);
    return e;
  }

  function renderFiles() {
    const body = $('#files tbody');
    body.replaceChildren();
    let valid = 0;
    state.files.forEach((f, i) => {
      const r = f.report;
      if (r.valid) valid++;
      const tr = el('tr', { onclick: () => selectFile(i) },
        el('td', { textContent: r.path }),
        el('td', { textContent: r.format + (r.layout ? ` (${r.layout})` : '') }),
        el('td', { className: r.valid ? 'valid' : 'invalid', textContent: r.readable ? (r.valid ? 'valid' : 'invalid') : 'unreadable' }),
        el('td', { className: 'num', textContent: r.counts.error }),
        el('td', { className: 'num', textContent: r.counts.warning }),
        el('td', { className: 'num', textContent: r.counts.info }),
        el('td', { className: 'num', textContent: r.counts.hint }),
        el('td', { className: 'num', textContent: r.size }));
      tr.dataset.index = i;
      body.append(tr);
    });
    $('#summary').textContent = state.files.length ? `${valid} valid, ${state.files.length - valid} invalid` : '';
    $('#download-json').disabled = $('#download-sarif').disabled = !state.files.length;
  }

  function visibleSeverities() {
    return new Set([...document.querySelectorAll('.sev-filter')].filter((c) => c.checked).map((c) => c.value));
  }

  function selectFile(i) {
    state.selected = i;
    state.issue = null;
    state.hexAt = null;
    state.pinnedByte = undefined;
    $('#hex-at').textContent = '';
    explain(null);
    document.querySelectorAll('#files tbody tr').forEach((tr) => tr.classList.toggle('sel', Number(tr.dataset.index) === i));
    const f = state.files[i];
    state.model = loadModel(f);
    // the structure after the preview: inspecting 100 MB takes a walk of its own
    closeInspector();
    state.structurePending = f;
    renderIssues();
    renderStructure();
    renderHex();
    preview.show(state.model, null);
    const m = state.model;
    const tris = m.meshes.reduce((n, x) => n + (x.lines ? 0 : x.indices.length / 3), 0);
    const partial = m.total > m.meshes.length ? ` (the first of ${m.total} meshes: a million triangles at most)` : '';
    $('#preview-note').textContent = m.meshes.length
      ? `${m.meshes.length} mesh(es)${partial}, ${tris} triangles, as the reference loader reads them. Drag to turn, wheel to zoom.`
      : `No preview: ${m.reason || 'no mesh in this file'}.`;
    if (!('previewMs' in document.body.dataset)) document.body.dataset.previewMs = Math.round(performance.now() - state.t0);
    setTimeout(ensureStructure, 0);
  }

  // The selected file's structure, inspected on first need.
  function ensureStructure() {
    const f = state.structurePending;
    if (!f) return;
    state.structurePending = null;
    if (state.files[state.selected] !== f) return;
    openInspector(f);
    renderStructure();
  }

  function renderIssues() {
    const body = $('#issues tbody');
    body.replaceChildren();
    const f = state.files[state.selected];
    if (!f) return;
    const show = visibleSeverities();
    $('#issues-title').textContent = `Issues of ${f.report.path}`;
    for (const issue of f.report.issues) {
      if (!show.has(issue.severity)) continue;
      const instances = issue.instances.length ? issue.instances : [{ offset: issue.first_offset, path: '', message: issue.summary }];
      instances.forEach((inst, k) => {
        const code = el('a', { href: `#code-${issue.code}`, textContent: issue.code });
        const tr = el('tr', { onclick: (ev) => { ev.preventDefault(); selectIssue(issue, inst, tr); } },
          el('td', { className: `sev-${issue.severity}`, textContent: issue.severity }),
          el('td', {}, code, k === 0 && issue.count > issue.instances.length ? ` (${issue.count} in all)` : ''),
          el('td', { className: 'num', textContent: offsetText(inst) }),
          el('td', {}, el('code', { textContent: inst.path })),
          el('td', { textContent: inst.message }));
        tr.dataset.code = issue.code;
        tr.dataset.offset = inst.offset;
        tr.dataset.path = inst.path;
        body.append(tr);
      });
    }
    if (!body.children.length) body.append(el('tr', {}, el('td', { colSpan: 5, className: 'muted', textContent: f.report.issues.length ? 'No issue of the severities shown.' : 'No issue.' })));
  }

  function selectIssue(issue, inst, tr) {
    state.issue = { issue, inst };
    document.querySelectorAll('#issues tbody tr').forEach((r) => r.classList.toggle('sel', r === tr));
    explain(issue.code);
    ensureStructure();
    renderHex();
    preview.show(state.model, highlightOf(inst.path));
    showNode(findNode(inst.path, inst));
  }

  // An issue's offset as the command's text report writes it: hex, and the
  // offset in the data an E3D LZMA block decodes to when it is there.
  function offsetText(inst) {
    const decoded = inst.payload_offset !== undefined ? ` (decoded ${hexNum(inst.payload_offset)})` : '';
    return `${hexNum(inst.offset)}${decoded}`;
  }

  const EXPLAIN_HINT = 'Select an issue to see its bytes, where it is in the model, and what its code means.';

  // What a code means, as `modelcheck explain` says it: the catalog
  // (docs/ISSUES.md is generated from the same); the hint when no issue is
  // selected (another file chosen).
  function explain(code) {
    const c = code && state.catalog.get(code);
    const box = $('#explain');
    box.replaceChildren();
    if (!c) {
      box.className = 'muted';
      box.textContent = EXPLAIN_HINT;
      return;
    }
    box.className = '';
    box.append(el('div', { id: `code-${code}` }, el('strong', { textContent: code }),
      ` (default severity ${c.severity}, check ${c.kind})`),
      el('div', { textContent: c.summary }),
      el('div', { className: 'muted', textContent: `Spec: ${c.clause}` }));
    if (c.why) box.append(el('div', { className: 'why' }, el('strong', { textContent: 'Why it matters: ' }), c.why));
    if (c.what_to_do) box.append(el('div', { className: 'todo' }, el('strong', { textContent: 'What to do: ' }), c.what_to_do));
  }

  function hex2(b) {
    return b.toString(16).padStart(2, '0');
  }

  // 16 rows of 16 bytes around the selected issue's offset.
  function renderHex() {
    const pre = $('#hex');
    const f = state.files[state.selected];
    const sel = state.issue;
    pre.replaceChildren();
    delete pre.dataset.offset;
    if (!f || (!sel && state.hexAt === null)) {
      pre.textContent = 'Select an issue, or a node of the structure.';
      return;
    }
    const at = sel ? sel.inst.offset : state.hexAt;
    const bytes = f.bytes;
    if (at >= bytes.length) {
      pre.textContent = `Offset ${at} is past the end of the file (${bytes.length} bytes).`;
      pre.dataset.offset = at;
      return;
    }
    const start = Math.max(0, Math.floor(at / 16) * 16 - 96);
    const end = Math.min(bytes.length, start + 256);
    for (let row = start; row < end; row += 16) {
      const line = el('span', { className: at >= row && at < row + 16 ? 'row-hit' : '' });
      line.append(`${row.toString(16).padStart(8, '0')}  `);
      let text = '';
      for (let i = row; i < row + 16; i++) {
        if (i < end) {
          const s = el('span', { textContent: hex2(bytes[i]) });
          s.dataset.off = i;
          if (i === at) s.className = 'hit';
          line.append(s, i === row + 7 ? '  ' : ' ');
          text += bytes[i] >= 0x20 && bytes[i] < 0x7f ? String.fromCharCode(bytes[i]) : '.';
        } else {
          line.append('   ');
        }
      }
      line.append(` |${text}|\n`);
      pre.append(line);
    }
    if (sel && sel.inst.payload_offset !== undefined) {
      pre.append(`\nThe issue is inside the data this block decodes to, at offset ${sel.inst.payload_offset} there;\nthe bytes above are the block's, as stored.`);
    }
    pre.className = '';
    pre.dataset.offset = at;
  }

  // ---- the structure view (modelcheck inspect) ----

  function hexNum(n) {
    return `0x${n.toString(16)}`;
  }

  function valueText(v) {
    if (Array.isArray(v)) return `(${v.map((x) => (x === null ? 'null' : x)).join(', ')})`;
    return typeof v === 'string' ? JSON.stringify(v) : String(v);
  }

  function attrsText(n) {
    return Object.entries(n.attributes || {}).map(([k, v]) => `${k}=${valueText(v)}`).join('  ');
  }

  // One line of a node: its path segment, kind, place and decoded attributes.
  function nodeLine(n) {
    const line = el('span', { className: 'node' },
      el('code', { textContent: n.parent ? (n.name === '' ? '(elements)' : n.name) : '/' }),
      ` ${n.kind}`, el('span', { className: 'muted', textContent: ` @${hexNum(n.offset)}${n.space ? ` in block ${n.space}` : ''}, ${n.size} B` }));
    if (n.stride) line.append(el('span', { className: 'muted', textContent: `, ${n.count} × ${n.stride} B` }));
    if (n.fields && n.fields.length > 1) line.append(el('span', { className: 'muted', textContent: ` [${n.fields.map((x) => x.name || x.type).join(', ')}]` }));
    const a = attrsText(n);
    if (a) line.append(`  ${a}`);
    line.title = n.path;
    line.addEventListener('click', (e) => {
      e.preventDefault(); // a click on the line selects, the marker opens
      showNode(n, false);
      if (!n.space) {
        state.hexAt = n.offset;
        if (!state.issue) renderHex();
      }
    });
    return line;
  }

  // A node and, built when first opened, its children.
  function nodeElement(n) {
    const kids = n.children || [];
    let e;
    if (!kids.length) {
      e = el('div', { className: 'leaf' }, nodeLine(n));
    } else {
      e = el('details', {}, el('summary', {}, nodeLine(n)));
      e.addEventListener('toggle', () => { if (e.open) buildChildren(e, n); });
    }
    n.element = e;
    e.dataset.path = n.path;
    return e;
  }

  function buildChildren(e, n) {
    if (e.dataset.built) return;
    e.dataset.built = '1';
    const kids = n.children || [];
    const box = el('div', { className: 'kids' });
    for (const c of kids.slice(0, STRUCTURE_MAX_CHILDREN)) box.append(nodeElement(c));
    if (kids.length > STRUCTURE_MAX_CHILDREN) box.append(el('div', { className: 'muted', textContent: `… ${kids.length - STRUCTURE_MAX_CHILDREN} more (modelcheck inspect --output json lists them)` }));
    e.append(box);
  }

  function nodesOfKind(root, kind) {
    const out = [];
    const stack = [root];
    while (stack.length) {
      const n = stack.pop();
      if (n.kind === kind) out.push(n);
      const kids = n.children || [];
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
    }
    return out;
  }

  // A table of the nodes of one kind (meshes, materials, ...), each row
  // selecting its node in the tree.
  function kindTable(root, kind, title) {
    const nodes = nodesOfKind(root, kind);
    if (!nodes.length) return null;
    const body = el('tbody');
    for (const n of nodes.slice(0, STRUCTURE_MAX_CHILDREN)) {
      // names stored as strings of their own (SEModel, E3D blocks)
      const names = (n.children || []).filter((k) => k.attributes && typeof k.attributes.text === 'string')
        .map((k) => `${k.name}=${JSON.stringify(k.attributes.text)}`).join('  ');
      body.append(el('tr', { onclick: () => showNode(n, true) },
        el('td', {}, el('code', { textContent: n.path })),
        el('td', { textContent: [attrsText(n), names].filter(Boolean).join('  ') })));
    }
    return el('details', { open: true, className: `kind-${kind}` },
      el('summary', { textContent: `${title} (${nodes.length})` }), el('table', {}, body));
  }

  // The skeleton as an indented tree, by each bone's parent index.
  function skeletonTree(root) {
    const bones = nodesOfKind(root, 'bone');
    if (!bones.length) return null;
    const parentOf = (b) => (b.attributes && typeof b.attributes.parent === 'number' ? b.attributes.parent : -1);
    const kids = bones.map(() => []);
    const roots = [];
    bones.forEach((b, i) => {
      const p = parentOf(b);
      if (p >= 0 && p < bones.length && p !== i) kids[p].push(i); else roots.push(i);
    });
    const list = el('div', { className: 'skeleton' });
    const seen = new Set();
    const stack = roots.slice().reverse().map((i) => [i, 0]);
    while (stack.length && seen.size < STRUCTURE_MAX_CHILDREN) {
      const [i, d] = stack.pop();
      if (seen.has(i)) continue;
      seen.add(i);
      const b = bones[i];
      const name = b.attributes && b.attributes.name !== undefined ? ` ${valueText(b.attributes.name)}` : '';
      list.append(el('div', { style: `padding-left: ${Math.min(d, 40) * 14}px`, textContent: `${i}${name}`, onclick: () => showNode(b, true) }));
      for (let k = kids[i].length - 1; k >= 0; k--) stack.push([kids[i][k], d + 1]);
    }
    const cycle = bones.length - seen.size;
    if (cycle > 0 && seen.size < STRUCTURE_MAX_CHILDREN) list.append(el('div', { className: 'muted', textContent: `${cycle} bone(s) on a parent cycle: no root reaches them` }));
    return el('details', { open: true, className: 'kind-bone' }, el('summary', { textContent: `skeleton (${bones.length} bones)` }), list);
  }

  function renderStructure() {
    const box = $('#structure');
    const doc = state.structure;
    box.replaceChildren();
    delete box.dataset.node;
    delete box.dataset.nodes;
    delete box.dataset.file;
    if (!doc) {
      box.append(el('div', { className: 'muted', textContent: state.selected < 0 ? 'Select a file.' : state.structurePending ? 'Inspecting…' : 'This file could not be inspected.' }));
      return;
    }
    box.dataset.file = doc.path;
    const root = doc.structure;
    box.append(el('div', {}, el('strong', { textContent: doc.path }),
      ` ${doc.format}${doc.layout ? ` (${doc.layout})` : ''}, ${doc.size} bytes${doc.truncated ? ' (the tree was cut at its node limit)' : ''}`));
    if (doc.first_error) {
      box.append(el('div', { className: 'sev-error', textContent: `first error ${doc.first_error.code} at ${hexNum(doc.first_error.offset)} ${doc.first_error.path}: the tree holds what could be followed` }));
    }
    const tree = nodeElement(root);
    tree.open = true;
    buildChildren(tree, root);
    box.append(el('details', { open: true, className: 'map' }, el('summary', { textContent: 'section map (click a node for its bytes)' }), tree));
    for (const part of [kindTable(root, 'mesh', 'meshes'), kindTable(root, 'material', 'materials'),
      kindTable(root, 'texture', 'textures'), skeletonTree(root), kindTable(root, 'animation', 'animations')]) {
      if (part) box.append(part);
    }
    let count = 0;
    for (const stack = [root]; stack.length; count++) stack.push(...(stack.pop().children || []));
    box.dataset.nodes = count;
  }

  // The deepest node an issue's path names (the same syntax: docs/INSPECT.md):
  // children match one or more segments (E3D's mesh/3; '' none); among
  // siblings of one name (SEModel's vertices arrays) the one holding the
  // issue's byte wins.
  function findNode(path, inst) {
    const doc = state.structure;
    if (!doc) return null;
    if (!path) {
      const l = inst ? byteAt(inst.offset) : null;
      if (!l) return null;
      path = l.node.path;
    }
    const segs = path.split('/').filter((x) => x !== '');
    const holds = (n) => {
      if (!inst) return false;
      const off = n.space ? inst.payload_offset : inst.offset;
      return off !== undefined && off >= n.offset && off < n.offset + n.size;
    };
    let node = doc.structure;
    let k = 0;
    for (;;) {
      let best = null;
      let bestUsed = 0;
      for (const c of node.children || []) {
        const cs = c.name === '' ? [] : c.name.split('/');
        if (!cs.every((x, j) => segs[k + j] === x)) continue;
        if (cs.length === 0 && !holds(c)) continue; // an unnamed run of elements: by place only
        if (!best || (holds(c) && !holds(best))) { best = c; bestUsed = cs.length; }
      }
      if (!best) return node;
      node = best;
      k += bestUsed;
    }
  }

  // Opens the tree down to n, marks it and scrolls it into the box.
  function showNode(n, scroll = true) {
    const box = $('#structure');
    box.querySelectorAll('.hit').forEach((e) => e.classList.remove('hit'));
    if (!n) { delete box.dataset.node; return; }
    const chain = [];
    for (let p = n; p; p = p.parent) chain.unshift(p);
    for (const p of chain.slice(0, -1)) {
      if (!p.element) continue;
      if (p.element.tagName === 'DETAILS') {
        p.element.open = true;
        buildChildren(p.element, p);
      }
    }
    const e = n.element;
    if (!e) return;
    e.classList.add('hit');
    box.dataset.node = n.path;
    box.dataset.nodeOffset = n.offset;
    if (scroll) {
      const line = e.firstElementChild || e;
      box.scrollTop += line.getBoundingClientRect().top - box.getBoundingClientRect().top - box.clientHeight / 3;
    }
  }

  // The hex view's bytes: hovering one says its path, field and value
  // (inspect --at); a click keeps it and selects its node.
  function describeByte(off, keep) {
    ensureStructure();
    const out = $('#hex-at');
    const l = byteAt(off);
    if (!l) {
      out.textContent = `${hexNum(off)}: no structure here`;
      return;
    }
    const field = l.field ? `  field ${l.field.name} ${l.field.type}[${l.field.element}] = ${l.field.value}` : '';
    out.textContent = `${hexNum(off)} (${off}): ${l.path}${field}  (${l.node.kind} ${l.node.path}, record ${hexNum(l.record.offset)}+${l.record.size})`;
    out.dataset.offset = off;
    out.dataset.path = l.path;
    if (keep) {
      state.pinnedByte = off;
      showNode(findNode(l.path, { offset: off }), true);
    }
  }

  // The vertices or triangles an issue's path names: /meshes/2/vertices/17,
  // /vertices/17/weights, /meshes/mesh[1]/triangles/5, /meshes/3.
  function highlightOf(path) {
    if (!path) return null;
    const mesh = /\/meshes\/(?:mesh\[)?(\d+)\]?/.exec(path);
    const vertex = /\/(?:vertices|vertex|skin_weights|weights|normals|positions|interleaved)\/(\d+)/.exec(path);
    const tri = /\/(?:triangles|faces|tris|triFaces\d*)\/(\d+)/.exec(path);
    if (!mesh && !vertex && !tri) return null;
    return { mesh: mesh ? Number(mesh[1]) : vertex || tri ? 0 : null, vertex: vertex ? Number(vertex[1]) : null,
      triangle: tri ? Number(tri[1]) : null, wholeMesh: !!mesh && !vertex && !tri };
  }

  // ---- a small WebGL renderer: flat-shaded triangles, an orbit camera ----

  const preview = (() => {
    const canvas = $('#preview');
    const gl = canvas.getContext('webgl', { preserveDrawingBuffer: true, antialias: true });
    let prog = null;
    let scene = null; // {buffers, center, radius}
    let yaw = 0.6;
    let pitch = 0.35;
    let zoom = 2.6;
    if (gl) {
      const vs = 'attribute vec3 p; attribute vec3 n; uniform mat4 mvp; uniform float size; varying float shade;' +
        'void main() { gl_Position = mvp * vec4(p, 1.0); gl_PointSize = size;' +
        ' shade = 0.35 + 0.65 * abs(dot(normalize(n + vec3(0.0, 0.0, 1e-9)), normalize(vec3(0.4, 0.8, 0.5)))); }';
      const fs = 'precision mediump float; uniform vec3 color; varying float shade;' +
        'void main() { gl_FragColor = vec4(color * shade, 1.0); }';
      prog = gl.createProgram();
      for (const [type, src] of [[gl.VERTEX_SHADER, vs], [gl.FRAGMENT_SHADER, fs]]) {
        const s = gl.createShader(type);
        gl.shaderSource(s, src);
        gl.compileShader(s);
        gl.attachShader(prog, s);
      }
      gl.linkProgram(prog);
    }

    function buffer(data) {
      const b = gl.createBuffer();
      gl.bindBuffer(gl.ARRAY_BUFFER, b);
      gl.bufferData(gl.ARRAY_BUFFER, data, gl.STATIC_DRAW);
      return b;
    }

    // Triangles unindexed, each corner with its face's normal.
    function triangles(mesh, pick) {
      const P = mesh.positions;
      const I = mesh.indices;
      const count = pick ? pick.length : I.length / 3;
      const pos = new Float32Array(count * 9);
      const nor = new Float32Array(count * 9);
      for (let k = 0; k < count; k++) {
        const t = pick ? pick[k] : k;
        const a = I[3 * t] * 3; const b = I[3 * t + 1] * 3; const c = I[3 * t + 2] * 3;
        const ux = P[b] - P[a]; const uy = P[b + 1] - P[a + 1]; const uz = P[b + 2] - P[a + 2];
        const vx = P[c] - P[a]; const vy = P[c + 1] - P[a + 1]; const vz = P[c + 2] - P[a + 2];
        const nx = uy * vz - uz * vy; const ny = uz * vx - ux * vz; const nz = ux * vy - uy * vx;
        const o = k * 9;
        for (let j = 0; j < 3; j++) {
          const v = j === 0 ? a : j === 1 ? b : c;
          pos[o + 3 * j] = P[v]; pos[o + 3 * j + 1] = P[v + 1]; pos[o + 3 * j + 2] = P[v + 2];
          nor[o + 3 * j] = nx; nor[o + 3 * j + 1] = ny; nor[o + 3 * j + 2] = nz;
        }
      }
      return { pos: buffer(pos), nor: buffer(nor), count: count * 3 };
    }

    function build(model, hl) {
      const parts = [];
      let min = [Infinity, Infinity, Infinity];
      let max = [-Infinity, -Infinity, -Infinity];
      let marked = 0;
      model.meshes.forEach((m, mi) => {
        for (let i = 0; i < m.positions.length; i += 3) {
          for (let k = 0; k < 3; k++) {
            if (Number.isFinite(m.positions[i + k])) {
              min[k] = Math.min(min[k], m.positions[i + k]);
              max[k] = Math.max(max[k], m.positions[i + k]);
            }
          }
        }
        const here = hl && hl.mesh === mi;
        if (m.lines) {
          const pos = new Float32Array(m.indices.length * 3);
          m.indices.forEach((v, k) => pos.set(m.positions.subarray(v * 3, v * 3 + 3), k * 3));
          parts.push({ pos: buffer(pos), nor: buffer(new Float32Array(pos.length)), count: m.indices.length, mode: gl.LINES, color: [0.7, 0.8, 0.9] });
        } else if (m.indices.length) {
          parts.push({ ...triangles(m), mode: gl.TRIANGLES, color: here && hl.wholeMesh ? [1, 0.45, 0.2] : [0.78, 0.8, 0.84] });
          if (here && hl.wholeMesh) marked += m.indices.length / 3;
        }
        if (here && hl.triangle !== null && !m.lines && hl.triangle < m.indices.length / 3) {
          parts.push({ ...triangles(m, [hl.triangle]), mode: gl.TRIANGLES, color: [1, 0.2, 0.2], over: true });
          // its corners too: a degenerate triangle covers no pixel
          const corners = new Float32Array(9);
          for (let j = 0; j < 3; j++) {
            const v = m.indices[hl.triangle * 3 + j];
            corners.set(m.positions.subarray(v * 3, v * 3 + 3), j * 3);
          }
          parts.push({ pos: buffer(corners), nor: buffer(new Float32Array(9)), count: 3, mode: gl.POINTS, color: [1, 0.15, 0.15], over: true, size: 9 });
          marked++;
        }
        if (here && hl.vertex !== null && hl.vertex < m.positions.length / 3) {
          const p = m.positions.slice(hl.vertex * 3, hl.vertex * 3 + 3);
          parts.push({ pos: buffer(p), nor: buffer(new Float32Array(3)), count: 1, mode: gl.POINTS, color: [1, 0.15, 0.15], over: true, size: 12 });
          marked++;
        }
      });
      if (!(min[0] <= max[0])) { min = [-1, -1, -1]; max = [1, 1, 1]; }
      const center = min.map((v, k) => (v + max[k]) / 2);
      const radius = Math.max(1e-6, Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]) / 2);
      return { parts, center, radius, marked, leftHanded: !!model.leftHanded };
    }

    function multiply(a, b) {
      const o = new Float32Array(16);
      for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) {
        let s = 0;
        for (let k = 0; k < 4; k++) s += a[k * 4 + r] * b[c * 4 + k];
        o[c * 4 + r] = s;
      }
      return o;
    }

    function draw() {
      if (!gl) return;
      gl.viewport(0, 0, canvas.width, canvas.height);
      gl.clearColor(0.125, 0.15, 0.18, 1);
      gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
      if (!scene) return;
      const { center, radius } = scene;
      const aspect = canvas.width / canvas.height;
      const near = radius * 0.01; const far = radius * 20;
      const f = 1 / Math.tan(0.4);
      const proj = new Float32Array([f / aspect, 0, 0, 0, 0, f, 0, 0, 0, 0, (far + near) / (near - far), -1, 0, 0, 2 * far * near / (near - far), 0]);
      const cy = Math.cos(yaw); const sy = Math.sin(yaw); const cp = Math.cos(pitch); const sp = Math.sin(pitch);
      // rotate about y (yaw) then x (pitch), then move back by zoom * radius
      const rot = new Float32Array([cy, sy * sp, -sy * cp, 0, 0, cp, sp, 0, sy, -cy * sp, cy * cp, 0, 0, 0, 0, 1]);
      const mirror = scene.leftHanded ? -1 : 1; // z away from the viewer (E3D)
      const move = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, mirror, 0, -center[0], -center[1], -mirror * center[2], 1]);
      const back = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, -zoom * radius, 1]);
      const mvp = multiply(proj, multiply(back, multiply(rot, move)));
      gl.useProgram(prog);
      gl.uniformMatrix4fv(gl.getUniformLocation(prog, 'mvp'), false, mvp);
      const pLoc = gl.getAttribLocation(prog, 'p');
      const nLoc = gl.getAttribLocation(prog, 'n');
      for (const part of scene.parts) {
        if (part.over) gl.disable(gl.DEPTH_TEST); else gl.enable(gl.DEPTH_TEST);
        gl.uniform3fv(gl.getUniformLocation(prog, 'color'), part.color);
        gl.uniform1f(gl.getUniformLocation(prog, 'size'), part.size || 1);
        gl.bindBuffer(gl.ARRAY_BUFFER, part.pos);
        gl.enableVertexAttribArray(pLoc);
        gl.vertexAttribPointer(pLoc, 3, gl.FLOAT, false, 0, 0);
        gl.bindBuffer(gl.ARRAY_BUFFER, part.nor);
        gl.enableVertexAttribArray(nLoc);
        gl.vertexAttribPointer(nLoc, 3, gl.FLOAT, false, 0, 0);
        gl.drawArrays(part.mode, 0, part.count);
      }
    }

    function show(model, hl) {
      if (!gl) {
        $('#preview-note').textContent = 'No preview: this browser gives no WebGL.';
        return;
      }
      if (scene) for (const p of scene.parts) { gl.deleteBuffer(p.pos); gl.deleteBuffer(p.nor); }
      scene = model && model.meshes.length ? build(model, hl) : null;
      canvas.dataset.highlighted = scene ? scene.marked : 0;
      canvas.dataset.meshes = scene ? model.meshes.length : 0;
      draw();
    }

    let drag = null;
    canvas.addEventListener('pointerdown', (e) => { drag = [e.clientX, e.clientY]; canvas.setPointerCapture(e.pointerId); });
    canvas.addEventListener('pointerup', () => { drag = null; });
    canvas.addEventListener('pointermove', (e) => {
      if (!drag) return;
      yaw += (e.clientX - drag[0]) * 0.01;
      pitch = Math.max(-1.5, Math.min(1.5, pitch + (e.clientY - drag[1]) * 0.01));
      drag = [e.clientX, e.clientY];
      draw();
    });
    canvas.addEventListener('wheel', (e) => {
      e.preventDefault();
      zoom = Math.max(0.3, Math.min(20, zoom * (e.deltaY > 0 ? 1.1 : 0.9)));
      draw();
    }, { passive: false });
    return { show };
  })();

  // ---- settings, filter, downloads ----

  function readSettings() {
    const o = {};
    const num = (id, key) => {
      const v = $(id).value.trim();
      if (v === '') return;
      const n = Number(v);
      if (!Number.isFinite(n) || n < 0) throw new RangeError(`${key}: not a number: ${v}`);
      o[key] = n;
    };
    if ($('#opt-format').value) o.format = $('#opt-format').value;
    num('#opt-max-issues', 'max_issues');
    num('#opt-weight', 'weight_tolerance');
    num('#opt-unit', 'unit_tolerance');
    num('#opt-quat', 'quaternion_tolerance');
    num('#opt-max-bytes', 'max_file_bytes');
    if ($('#opt-werror').checked) o.werror = true;
    const sev = {};
    for (const line of $('#opt-severity').value.split('\n')) {
      const t = line.trim();
      if (!t) continue;
      const at = t.indexOf('=');
      if (at < 0) throw new RangeError(`expected CODE=LEVEL, got '${t}'`);
      sev[t.slice(0, at).trim()] = t.slice(at + 1).trim();
    }
    if (Object.keys(sev).length) o.severity = sev;
    return o;
  }

  function download(output, name, type) {
    const text = runReport(state.files, state.options, output);
    const url = URL.createObjectURL(new Blob([text], { type }));
    const a = el('a', { href: url, download: name });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  function bind() {
    const drop = $('#drop');
    for (const type of ['dragenter', 'dragover']) drop.addEventListener(type, (e) => { e.preventDefault(); drop.classList.add('over'); });
    drop.addEventListener('dragleave', () => drop.classList.remove('over'));
    drop.addEventListener('drop', async (e) => {
      e.preventDefault();
      drop.classList.remove('over');
      const { out, unread } = await droppedFiles(e.dataTransfer);
      await addFiles(out);
      if (unread.length) {
        setStatus(`${$('#status').textContent} The folder(s) dropped could not be read here (${unread.join(', ')}): pick them with "pick a folder".`);
      }
    });
    $('#pick-files').addEventListener('change', (e) => {
      addFiles([...e.target.files].map((file) => ({ file, path: file.name, fromWalk: false })));
      e.target.value = '';
    });
    $('#pick-folder').addEventListener('change', (e) => {
      const list = [...e.target.files].filter((f) => !f.webkitRelativePath.split('/').some((p) => p.startsWith('.')))
        .map((file) => ({ file, path: file.webkitRelativePath || file.name, fromWalk: true }));
      addFiles(list);
      e.target.value = '';
    });
    $('#apply').addEventListener('click', () => {
      try {
        state.options = readSettings();
        runReport([], state.options, 'json'); // refused options throw here
        $('#settings-error').textContent = '';
      } catch (err) {
        $('#settings-error').textContent = err.message;
        return;
      }
      validateAll();
    });
    const hex = $('#hex');
    hex.addEventListener('mouseover', (e) => { if (e.target.dataset.off !== undefined) describeByte(Number(e.target.dataset.off), false); });
    hex.addEventListener('click', (e) => { if (e.target.dataset.off !== undefined) describeByte(Number(e.target.dataset.off), true); });
    hex.addEventListener('mouseleave', () => { if (state.pinnedByte !== undefined) describeByte(state.pinnedByte, false); });
    document.querySelectorAll('.sev-filter').forEach((c) => c.addEventListener('change', renderIssues));
    $('#download-json').addEventListener('click', () => download('json', 'modelcheck-report.json', 'application/json'));
    $('#download-sarif').addEventListener('click', () => download('sarif', 'modelcheck.sarif', 'application/sarif+json'));
  }

  async function init() {
    try {
      state.M = await createModelcheckCore();
      const p = state.M._mcw_catalog();
      for (const c of JSON.parse(state.M.UTF8ToString(p))) state.catalog.set(c.code, c);
      state.M._free(p);
    } catch (err) {
      setStatus(`The validator could not start: ${err}`);
      return;
    }
    bind();
    setStatus('Ready: nothing validated yet.');
    document.body.dataset.ready = '1';
  }

  init();
})();
