// Types of modelcheck-wasm (index.js). The report is the document that
// `modelcheck --output json` writes: reports/schema/report.schema.json.

export type Severity = 'error' | 'warning' | 'info' | 'hint';
export type Format = 'aem' | 'semodel' | 'aamf' | 'e3d' | 'nlm';

export interface Options {
  /** validate as this format instead of detecting */
  format?: Format;
  /** what run() writes: json (default), sarif, sarif-github or text */
  output?: 'json' | 'sarif' | 'sarif-github' | 'text';
  /** instances kept per issue code (default 10; 0 keeps counts only) */
  maxIssues?: number;
  /** a code's severity, e.g. {AEM_WEIGHT_SUM: 'warning'} */
  severity?: Record<string, Severity | 'ignore'>;
  /** codes to drop */
  ignore?: string[];
  /** per non-zero weight (default 2e-7; 0: exact) */
  weightTolerance?: number;
  /** unit vectors (default 0.00674; 0: exact) */
  unitTolerance?: number;
  /** rotations (default 0.00769; 0: exact) */
  quaternionTolerance?: number;
  /** larger files are rejected with FILE_TOO_LARGE (default 4 GiB) */
  maxFileBytes?: number;
  /** do not hash (sha256 is null) */
  noSha256?: boolean;
  /** warnings make the exit code 1 */
  werror?: boolean;
  /** text: nothing for valid files */
  quiet?: boolean;
  /** skip named files no format recognises, as in a directory walk */
  skipUnrecognized?: boolean;
  /** the directory sarif-github names as the invocation's (an absolute path; default /) */
  workingDirectory?: string;
}

export interface Instance {
  offset: number;
  payload_offset?: number;
  /** structural path, e.g. /vertices/17/weights */
  path: string;
  message: string;
}

export interface Issue {
  code: string;
  severity: Severity;
  summary: string;
  clause: string;
  count: number;
  first_offset: number;
  instances: Instance[];
}

export type Counts = Record<Severity, number>;

export interface FileReport {
  tool: { name: string; version: string };
  path: string;
  path_escaped?: boolean;
  size: number;
  sha256: string | null;
  format: Format | 'unknown';
  layout: string;
  readable: boolean;
  valid: boolean;
  counts: Counts;
  truncated: boolean;
  issues: Issue[];
  info: Record<string, number>;
}

export interface Report {
  tool: { name: string; version: string };
  settings: Record<string, unknown>;
  files: FileReport[];
  summary: {
    files: number; valid: number; invalid: number; unreadable: number; skipped: number;
    counts: Counts; formats: Record<string, number>;
  };
}

export type Bytes = Uint8Array | ArrayBuffer | ArrayBufferView;

export interface FileInput {
  path: string;
  bytes?: Bytes;
  /** a file the caller could not read: errno's name, e.g. 'ENOENT' */
  error?: string;
  /** met while walking a folder: skipped when no format recognises it */
  fromWalk?: boolean;
  /** instead of bytes: the file's size, and a reader that fills the module's memory with
   * it (returns the bytes read; throws an error with an errno code when it cannot) */
  size?: number;
  readInto?: (view: Uint8Array) => number;
}

/** One file's bytes validated: the CLI's JSON report. */
export function validate(bytes: Bytes, options?: Options & { path?: string }): Promise<Report>;

/** Many files into one report, as `modelcheck PATH...`: the text written and the exit code. */
export function run(files: Iterable<FileInput>, options?: Options): Promise<{ text: string; exitCode: number }>;

export interface CatalogEntry {
  code: string;
  severity: Severity;
  origin: string;
  summary: string;
  clause: string;
  kind: string;
  [key: string]: unknown;
}

/** The issue catalog (modelcheck --list-codes --output json). */
export function catalog(): Promise<CatalogEntry[]>;

/** The catalog as text, byte for byte what the CLI prints. */
export function catalogText(): Promise<string>;

/** A node of the structure tree (reports/schema/inspect.schema.json). */
export interface StructureNode {
  /** path segment ('' for the root); a node's path is its ancestors' names joined by '/' */
  name: string;
  kind: string;
  offset: number;
  size: number;
  /** 0: the file; n: the decoded bytes of the nth compressed block */
  space: number;
  inner_space?: number;
  count?: number;
  stride?: number;
  fields?: { name: string; type: string; offset: number; count: number }[];
  attributes?: Record<string, number | string | null | (number | null)[]>;
  children: StructureNode[];
}

/** One file of `modelcheck inspect --output json`. */
export interface InspectedFile {
  path: string;
  format: Format | 'unknown';
  layout: string;
  size: number;
  valid: boolean;
  errors: number;
  warnings: number;
  truncated: boolean;
  first_error: { code: string; offset: number; path: string; message: string } | null;
  structure: StructureNode;
}

export interface InspectDocument {
  tool: { name: string; version: string };
  files: InspectedFile[];
}

/** The byte at an offset, as `modelcheck inspect --at` finds it. */
export interface Location {
  offset: number;
  /** 0: the file; n > 0: a decoded LZMA block (E3D) */
  space: number;
  /** the path issues use, e.g. /meshes/0/vertices/17/weights/2 */
  path: string;
  node: { path: string; kind: string; offset: number; size: number; count?: number; stride?: number };
  field: { name: string; type: string; offset: number; count: number; element: number; value: string } | null;
  record: { offset: number; size: number };
}

export interface InspectOptions {
  /** the name the document gives the file ("-" by default) */
  path?: string;
  /** read as this format instead of detecting */
  format?: Format;
}

export interface Inspector {
  /** 0 when the file could be inspected */
  readonly status: number;
  readonly valid: boolean;
  /** the document `modelcheck inspect --output json` writes, as text */
  jsonText(): string;
  /** the file's object of that document, as text */
  fileJsonText(first?: boolean): string;
  /** what `modelcheck inspect` prints */
  text(): string;
  /** the byte at `at` (a number, or --at's text: "0x23c", "0xc+0x18e124"); null: no such byte */
  at(at: number | string): Location | null;
  /** what `modelcheck inspect --at AT` prints; throws its refusal */
  atText(at: number | string): string;
  /** frees the copy of the bytes in the module */
  close(): void;
}

/** One file's structure: the document `modelcheck inspect --output json` writes. */
export function inspect(bytes: Bytes, options?: InspectOptions): Promise<InspectDocument>;

/** The byte at `where` in one file (as `modelcheck inspect --at`). */
export function at(bytes: Bytes, where: number | string, options?: InspectOptions): Promise<Location | null>;

/** An inspection kept open for many lookups (the web page's hex view). */
export function openInspector(bytes: Bytes, options?: InspectOptions): Promise<Inspector>;

/** The JSON document of `modelcheck inspect` around its files: its head (0) or tail (1). */
export function inspectFrame(end: 0 | 1): Promise<string>;
