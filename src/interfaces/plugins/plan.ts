/**
 * An install or uninstall is a plan first: every file it would touch, with its content before and
 * after. `--dry-run` prints the plan (the changed lines of each file) and writes nothing; applying
 * writes each changed file atomically (tmp + rename) and removes the files and folders Tapedeck owns.
 */
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname } from 'node:path';

/** One file: `apply` turns the current content (null: absent) into the wanted one (null: remove). */
export interface FileEdit {
  path: string;
  /** What the edit is about, for the plan ("hooks SessionStart, Stop", "skill tapedeck-status"). */
  what: string;
  apply(before: string | null): string | null;
}

export type ChangeKind = 'create' | 'update' | 'delete' | 'unchanged';

export interface FileChange {
  path: string;
  kind: ChangeKind;
  what: string[];
  before: string | null;
  after: string | null;
}

export interface Plan {
  changes: FileChange[];
  /** Folders to remove after the files, when they are left empty (deepest first). */
  dirs: string[];
  notes: string[];
}

export function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR')
      return null;
    throw e;
  }
}

/** Run the edits against the files as they are now (edits of one file compose in order). */
export function planEdits(edits: FileEdit[], dirs: string[] = [], notes: string[] = []): Plan {
  const byPath = new Map<string, FileChange>();
  for (const e of edits) {
    let c = byPath.get(e.path);
    if (!c) {
      const before = readText(e.path);
      c = { path: e.path, kind: 'unchanged', what: [], before, after: before };
      byPath.set(e.path, c);
    }
    const next = e.apply(c.after);
    if (next !== c.after) c.what.push(e.what);
    c.after = next;
  }
  const changes = [...byPath.values()].map((c) => ({
    ...c,
    kind: (c.before === c.after
      ? 'unchanged'
      : c.before === null
        ? 'create'
        : c.after === null
          ? 'delete'
          : 'update') as ChangeKind,
  }));
  return { changes, dirs, notes };
}

/** The changed lines: what differs between the common head and tail of the two texts. */
export function lineDiff(before: string | null, after: string | null): string[] {
  const a = before === null ? [] : before.replace(/\n$/, '').split('\n');
  const b = after === null ? [] : after.replace(/\n$/, '').split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const out: string[] = [];
  if (head > 0) out.push(`@@ after line ${head} @@`);
  for (const l of a.slice(head, a.length - tail)) out.push(`- ${l}`);
  for (const l of b.slice(head, b.length - tail)) out.push(`+ ${l}`);
  return out;
}

export function writeFileAtomic(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tapedeck-${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

export function applyPlan(plan: Plan): void {
  for (const c of plan.changes) {
    if (c.kind === 'create' || c.kind === 'update') writeFileAtomic(c.path, c.after!);
    else if (c.kind === 'delete') unlinkSync(c.path);
  }
  for (const d of plan.dirs) {
    try {
      if (readdirSync(d).length === 0) rmdirSync(d);
    } catch {
      // not there, or not empty: left as it is
    }
  }
}
