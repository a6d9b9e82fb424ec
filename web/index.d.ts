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
