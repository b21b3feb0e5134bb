/**
 * `find` and `grep`: bounded walks of the tree. Every walk stops at a cap on results, on nodes
 * visited and on time, and says why it stopped, so a query over 100,000 memories or a regex that
 * backtracks forever still answers quickly with what it found.
 */
import { invalidInput } from '../../core/errors.js';
import { globToRegExp } from '../../core/glob.js';
import { compilePattern, matchLines } from './grep.js';
import { bytes, type FsDir, type FsNode } from './tree.js';

export const FIND_DEFAULT = 100;
export const FIND_MAX = 10_000;
export const GREP_DEFAULT = 100;
export const GREP_MAX = 1_000;
export const GREP_TIMEOUT_MS = 3_000;
export const GREP_TIMEOUT_MAX_MS = 30_000;
/** Nodes a find visits at most. */
const VISIT_CAP = 50_000;
/** Files and text a grep reads at most. */
const GREP_FILES_CAP = 10_000;
const GREP_BYTES_CAP = 64 * 1024 * 1024;
/** Text matched per vm call (a batch): big enough to amortize the call, small enough to stop early. */
const BATCH_BYTES = 1024 * 1024;
const PAGE = 500;
const FIND_TIMEOUT_MS = 10_000;

export interface FoundEntry {
  path: string;
  kind: 'file' | 'dir';
  title: string | null;
}

export interface FindResult {
  path: string;
  entries: FoundEntry[];
  /** True when a cap stopped the walk before it was complete. */
  truncated: boolean;
  note: string | null;
}

export interface GrepMatch {
  path: string;
  line: number;
  text: string;
}

export interface GrepResult {
  pattern: string;
  path: string;
  matches: GrepMatch[];
  files_searched: number;
  truncated: boolean;
  note: string | null;
}

/** Visit nodes depth first (a folder before its children); `visit` returns false to stop. */
function walk(start: FsNode, skipViews: boolean, visit: (n: FsNode) => boolean): boolean {
  if (!visit(start)) return false;
  if (start.kind !== 'dir') return true;
  for (let offset = 0; ; offset += PAGE) {
    const page = (start as FsDir).list(offset, PAGE);
    for (const child of page.entries) {
      if (skipViews && child.kind === 'dir' && child.view) continue;
      if (!walk(child, skipViews, visit)) return false;
    }
    if (!page.more) return true;
  }
}

const cap = (value: number | undefined, fallback: number, max: number, what: string) => {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw invalidInput(`${what} must be a whole number ≥ 1`);
  return Math.min(value, max);
};

export function find(
  start: FsNode,
  opts: { name?: string; type?: string; max?: number; now?: () => number },
): FindResult {
  const now = opts.now ?? Date.now;
  if (opts.type !== undefined && opts.type !== 'file' && opts.type !== 'dir')
    throw invalidInput(`--type is file or dir, not "${opts.type}"`);
  const max = cap(opts.max, FIND_DEFAULT, FIND_MAX, 'max');
  const name = opts.name !== undefined ? globToRegExp(opts.name) : null;
  const entries: FoundEntry[] = [];
  const started = now();
  let visited = 0;
  let note: string | null = null;
  walk(start, false, (n) => {
    if (++visited > VISIT_CAP) {
      note = `stopped after visiting ${VISIT_CAP.toLocaleString('en-US')} entries; narrow the path`;
      return false;
    }
    if (now() - started > FIND_TIMEOUT_MS) {
      note = `stopped after ${FIND_TIMEOUT_MS / 1000} s; narrow the path`;
      return false;
    }
    if ((!opts.type || n.kind === opts.type) && (!name || name.test(n.name))) {
      if (entries.length >= max) {
        note = `more than ${max} matches; raise --max or narrow the path`;
        return false;
      }
      entries.push({ path: n.path, kind: n.kind, title: n.title ?? null });
    }
    return true;
  });
  return { path: start.path, entries, truncated: note !== null, note };
}

/**
 * Regex over the lines of every file under `start`, each record once (views are skipped when
 * walking from above them, and a record seen at two paths is read at its first). Bounded by
 * `max` matches, files and bytes read, and `timeoutMs` in all — reading included.
 */
export function grep(
  start: FsNode,
  pattern: string,
  opts: { ignoreCase?: boolean; max?: number; timeoutMs?: number; now?: () => number },
): GrepResult {
  const now = opts.now ?? Date.now;
  const re = compilePattern(pattern, !!opts.ignoreCase);
  const max = cap(opts.max, GREP_DEFAULT, GREP_MAX, 'max');
  const budget = cap(opts.timeoutMs, GREP_TIMEOUT_MS, GREP_TIMEOUT_MAX_MS, 'timeout');
  const started = now();
  const left = () => budget - (now() - started);
  const matches: GrepMatch[] = [];
  const seen = new Set<string>();
  let files = 0;
  let total = 0;
  let note: string | null = null;
  let batch: { path: string; lines: string[] }[] = [];
  let batchBytes = 0;

  const flush = (): boolean => {
    if (batch.length === 0) return true;
    const r = matchLines(
      re,
      batch.map((b) => b.lines),
      max - matches.length,
      left(),
    );
    for (const m of r.matches) matches.push({ path: batch[m.file].path, line: m.line, text: m.text });
    const stoppedIn = r.stoppedAt ? batch[r.stoppedAt.file]?.path : undefined;
    batch = [];
    batchBytes = 0;
    if (r.timedOut) {
      note = `stopped after ${budget} ms${stoppedIn ? ` in ${stoppedIn}` : ''}: the pattern is too slow or the tree too large; results are partial (narrow the path or simplify the pattern)`;
      return false;
    }
    if (r.full || matches.length >= max) {
      note = `stopped at ${max} matches; raise --max or narrow the path`;
      return false;
    }
    return true;
  };

  walk(start, !(start.kind === 'dir' && start.view), (n) => {
    if (n.kind !== 'file') return true;
    const key = n.canonical ?? n.path;
    if (seen.has(key)) return true;
    seen.add(key);
    if (left() <= 0) {
      note = `stopped after ${budget} ms: the tree is too large; results are partial (narrow the path)`;
      return false;
    }
    if (files >= GREP_FILES_CAP || total >= GREP_BYTES_CAP) {
      note = `stopped after reading ${files.toLocaleString('en-US')} files; results are partial (narrow the path)`;
      return false;
    }
    const text = n.read();
    files++;
    const size = bytes(text);
    total += size;
    const lines = text.split('\n');
    if (lines.at(-1) === '') lines.pop();
    batch.push({ path: n.path, lines });
    batchBytes += size;
    return batchBytes < BATCH_BYTES || flush();
  });
  // What was read before a stop is still matched, in whatever time is left.
  if (batch.length && left() > 0) {
    const before: string | null = note;
    flush();
    if (before !== null) note = before;
  }
  return { pattern, path: start.path, matches, files_searched: files, truncated: note !== null, note };
}
