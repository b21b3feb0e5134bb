/** The actions of `tapedeck fs …` (loaded only when one runs). */
import type { Engine } from '../../../app/engine.js';
import { invalidInput } from '../../../core/errors.js';
import type { FsEntry } from '../../../services/fs/index.js';
import { type GlobalFlags, intOption, openEngine } from '../context.js';
import { print, printJson, warn } from '../output.js';
import { readText } from './read-text.js';

interface FsFlags extends GlobalFlags {
  space?: string;
  long?: boolean;
  max?: string;
  offset?: string;
  lines?: string;
  number?: boolean;
  name?: string;
  type?: string;
  ignoreCase?: boolean;
  timeout?: string;
  limit?: string;
  file?: string;
  content?: string;
  yes?: boolean;
}

const scope = (f: FsFlags) => ({ space: f.space, cwd: process.cwd() });

/** Run against the engine; print JSON or the human text, and any note on stderr. */
async function withEngine<R>(
  flags: FsFlags,
  fn: (e: Engine) => R | Promise<R>,
  human: (r: R) => string,
  note?: (r: R) => string | null,
): Promise<void> {
  const engine = openEngine(flags);
  try {
    const r = await fn(engine);
    if (flags.json) printJson(r);
    else {
      const text = human(r);
      if (text !== '') print(text);
      const n = note?.(r);
      if (n) warn(n);
    }
  } finally {
    engine.close();
  }
}

const size = (n: number | null) =>
  n === null
    ? '-'
    : n < 1024
      ? `${n}`
      : n < 1024 * 1024
        ? `${(n / 1024).toFixed(1)}K`
        : `${(n / 1048576).toFixed(1)}M`;

function entryLine(e: FsEntry, long: boolean): string {
  const name = e.kind === 'dir' ? `${e.name}/` : e.name;
  if (!long) {
    const extra = e.kind === 'dir' ? (e.count !== null ? `(${e.count})` : '') : (e.title ?? '');
    return extra ? `${name}  ${extra}` : name;
  }
  const what = e.kind === 'dir' ? `d ${e.count === null ? '-' : String(e.count)}` : `- ${size(e.size)}`;
  const info = e.info?.steps !== undefined ? ` ${e.info.steps} steps` : '';
  return `${what.padEnd(9)} ${(e.updated_at ?? '').slice(0, 16).padEnd(16)} ${name}${e.title ? `  ${e.title}` : ''}${info}${e.writable ? '' : '  (read-only)'}`;
}

export const runLs = (path: string, f: FsFlags) =>
  withEngine(
    f,
    (e) =>
      e.fs.ls(path, {
        ...scope(f),
        long: f.long,
        max: intOption('max', f.max, 1),
        offset: intOption('offset', f.offset, 0),
      }),
    (r) => (r.entries.length ? r.entries.map((x) => entryLine(x, !!f.long)).join('\n') : ''),
    (r) =>
      r.next_offset !== null
        ? `(more entries: --offset ${r.next_offset}${r.count !== null ? ` of ${r.count}` : ''})`
        : r.entries.length === 0
          ? `(${r.path} is empty)`
          : null,
  );

export const runCat = (path: string, f: FsFlags) =>
  withEngine(
    f,
    (e) => e.fs.cat(path, { ...scope(f), lines: f.lines }),
    (r) => {
      const width = String(r.to).length;
      return r.lines
        .map((l, i) => (f.number ? `${String(r.from + i).padStart(Math.max(width, 4))}  ${l}` : l))
        .join('\n');
    },
    (r) =>
      r.more
        ? `(lines ${r.from}-${r.to} of ${r.total_lines ?? 'more'}; --lines ${r.to + 1}- for the rest)`
        : null,
  );

export const runStat = (path: string, f: FsFlags) =>
  withEngine(
    f,
    (e) => e.fs.stat(path, scope(f)),
    (r) =>
      [
        `path: ${r.path}`,
        `kind: ${r.kind}`,
        r.title ? `title: ${r.title}` : null,
        r.kind === 'file'
          ? `size: ${r.size} bytes, ${r.lines} lines`
          : r.count !== null
            ? `entries: ${r.count}`
            : null,
        r.created_at ? `created: ${r.created_at}` : null,
        r.updated_at ? `updated: ${r.updated_at}` : null,
        `link: ${r.link}`,
        `writable: ${r.writable ? 'yes' : 'no'}`,
        r.canonical && r.canonical !== r.path ? `canonical: ${r.canonical}` : null,
        ...Object.entries(r.info).map(([k, v]) => `${k}: ${v ?? ''}`),
      ]
        .filter((x) => x !== null)
        .join('\n'),
  );

export const runFind = (path: string, f: FsFlags) =>
  withEngine(
    f,
    (e) => e.fs.find(path, { ...scope(f), name: f.name, type: f.type, max: intOption('max', f.max, 1) }),
    (r) => r.entries.map((x) => (x.kind === 'dir' ? `${x.path}/` : x.path)).join('\n'),
    (r) => (r.note ? `(partial: ${r.note})` : r.entries.length === 0 ? '(nothing found)' : null),
  );

export const runGrep = (pattern: string, path: string, f: FsFlags) =>
  withEngine(
    f,
    (e) =>
      e.fs.grep(pattern, path, {
        ...scope(f),
        ignoreCase: f.ignoreCase,
        max: intOption('max', f.max, 1),
        timeoutMs: intOption('timeout', f.timeout, 1),
      }),
    (r) => r.matches.map((m) => `${m.path}:${m.line}:${m.text}`).join('\n'),
    (r) =>
      r.note
        ? `(partial: ${r.note})`
        : r.matches.length === 0
          ? `(no match in ${r.files_searched} files)`
          : null,
  );

export const runRecall = (query: string, path: string, f: FsFlags) =>
  withEngine(
    f,
    (e) => e.fs.recall(query, path, { ...scope(f), limit: intOption('limit', f.limit, 1) }),
    (r) => r.hits.map((h) => `${h.path} — ${h.title}\n  ${h.snippet.replace(/\s+/g, ' ')}`).join('\n'),
    (r) => (r.hits.length === 0 ? `(nothing under ${r.path} matches "${r.query}")` : null),
  );

export async function runWrite(path: string, f: FsFlags): Promise<void> {
  if (f.content !== undefined && f.file !== undefined)
    throw invalidInput('Give --content or --file, not both');
  let content = f.content;
  if (content === undefined) {
    if (f.file === undefined && process.stdin.isTTY)
      throw invalidInput('Give the text with --file, --content, or on standard input');
    content = readText(f.file ?? '-');
  }
  const text = content;
  await withEngine(
    f,
    (e) => e.fs.write(path, text, scope(f)),
    (r) => r.note,
  );
}

export async function runRm(path: string, f: FsFlags): Promise<void> {
  if (!f.yes)
    throw invalidInput(
      `rm needs --yes: it forgets a memory, removes a wiki page or archives a skill (each can be undone; the command says how)`,
    );
  await withEngine(
    f,
    (e) => e.fs.rm(path, scope(f)),
    (r) => `${r.status[0].toUpperCase()}${r.status.slice(1)} ${r.path} (undo: ${r.undo})`,
  );
}
