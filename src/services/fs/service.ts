/**
 * One filesystem over Tapedeck's knowledge (`tapedeck fs`, the MCP fs tools): /memories, /threads,
 * /skills, /rules, /wiki and /working-memory as folders and Markdown files, with ls, cat, stat,
 * find, grep, recall, write and rm. Each verb resolves the path through the mount that owns it;
 * the mounts call the domain services, so every rule of those services (validation, redaction,
 * dedup, versions, tombstones) holds here too.
 *
 * Errors: a malformed or escaping path is INVALID_INPUT (fs-path.ts); a path that does not exist
 * is NOT_FOUND naming the nearest folder that does; a write or rm where the tree is read-only is
 * FORBIDDEN naming the places that are writable.
 */
import { invalidInput, notFound, TapedeckError } from '../../core/errors.js';
import { formatFsPath, parseFsPath } from '../../core/fs-path.js';
import {
  bytes,
  type FsDir,
  type FsFile,
  type FsNode,
  type FsRemoveResult,
  type FsScope,
  type FsWriteResult,
  forbidden,
  type Mount,
  type RecallHit,
} from './tree.js';
import { type FindResult, find, type GrepResult, grep } from './walk.js';

export const LS_DEFAULT = 100;
export const LS_MAX = 1000;
export const RECALL_DEFAULT = 10;
export const RECALL_MAX = 50;
/** Text a write accepts (each domain has its own, smaller limit; this bounds the parse). */
export const MAX_WRITE_BYTES = 2 * 1024 * 1024;

export interface FsEntry {
  name: string;
  path: string;
  kind: 'file' | 'dir';
  title: string | null;
  updated_at: string | null;
  /** Bytes; null for folders and where unknown without a full render (threads, in listings). */
  size: number | null;
  /** Children of a folder, when known. */
  count: number | null;
  /** With `long`: */
  created_at?: string | null;
  link?: string;
  writable?: boolean;
  info?: Record<string, string | number | boolean | null>;
}

export interface FsListing {
  path: string;
  kind: 'file' | 'dir';
  count: number | null;
  offset: number;
  entries: FsEntry[];
  /** Offset of the next page, or null at the end. */
  next_offset: number | null;
}

export interface FsCat {
  path: string;
  /** First and last line returned (1-based); 0 and 0 for an empty file or window past the end. */
  from: number;
  to: number;
  /** Lines in the file; null when a window of a long thread stopped rendering early. */
  total_lines: number | null;
  /** Lines follow after `to`. */
  more: boolean;
  lines: string[];
}

export interface FsStat {
  path: string;
  kind: 'file' | 'dir';
  title: string | null;
  size: number | null;
  lines: number | null;
  count: number | null;
  created_at: string | null;
  updated_at: string | null;
  link: string;
  writable: boolean;
  canonical: string | null;
  info: Record<string, string | number | boolean | null>;
}

export interface FsRecall {
  query: string;
  path: string;
  hits: (RecallHit & { source: string })[];
  /** Mounts under the path that have no search of their own. */
  unsearched: string[];
}

/** The fs use cases every interface calls (`engine.fs`). */
export interface FsService {
  /** A folder's children a page at a time (a file lists as itself). */
  ls(path: string, opts?: FsScope & { long?: boolean; max?: number; offset?: number }): Promise<FsListing>;
  /** A file's text, or the lines of a 1-based window (`A-B`); a long thread renders only what is asked. */
  cat(path: string, opts?: FsScope & { lines?: string | [number, number] }): Promise<FsCat>;
  stat(path: string, scope?: FsScope): Promise<FsStat>;
  /** Entries under a path by name glob and kind, at most `max` (default 100). */
  find(path: string, opts?: FsScope & { name?: string; type?: string; max?: number }): Promise<FindResult>;
  /** A JavaScript regex over the lines of every file under a path, bounded in matches and time. */
  grep(
    pattern: string,
    path: string,
    opts?: FsScope & { ignoreCase?: boolean; max?: number; timeoutMs?: number },
  ): Promise<GrepResult>;
  /** Search under a path with each domain's own ranking (memories, threads, skills, wiki, rules). */
  recall(query: string, path: string, opts?: FsScope & { limit?: number }): Promise<FsRecall>;
  /** Write a file where the tree is writable (see each mount); FORBIDDEN elsewhere. */
  write(path: string, content: string, scope?: FsScope): Promise<FsWriteResult>;
  /** Remove a file where the tree allows it: memories are forgotten, wiki pages tombstoned, skills archived. */
  rm(path: string, scope?: FsScope): Promise<FsRemoveResult>;
}

export interface FsServiceDeps {
  mounts: Mount[];
  now?: () => number;
}

/** Parse `A-B`, `A-`, `-B` or `A` into a 1-based inclusive window. */
export function parseLineWindow(lines: string | [number, number]): [number, number] {
  if (Array.isArray(lines)) return check(lines[0], lines[1], `${lines[0]}-${lines[1]}`);
  const m = /^\s*(\d+)?\s*(?:(-)\s*(\d+)?)?\s*$/.exec(String(lines));
  if (!m || (m[1] === undefined && m[3] === undefined))
    throw invalidInput(`Invalid line window "${lines}": use A-B (e.g. 1-40), A- or one line number`);
  const from = m[1] === undefined ? 1 : Number(m[1]);
  const to = m[2] === undefined ? from : m[3] === undefined ? Number.MAX_SAFE_INTEGER : Number(m[3]);
  return check(from, to, String(lines));
}

function check(from: number, to: number, raw: string): [number, number] {
  if (!Number.isInteger(from) || !Number.isInteger(to) || from < 1)
    throw invalidInput(`Invalid line window "${raw}": lines are numbered from 1`);
  if (to < from) throw invalidInput(`Invalid line window "${raw}": the first line is after the last`);
  return [from, to];
}

const splitLines = (text: string) => {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
};

export function createFsService({ mounts, now = Date.now }: FsServiceDeps): FsService {
  const byName = new Map(mounts.map((m) => [m.name, m]));
  const writablePlaces = () =>
    mounts
      .filter((m) => m.writable)
      .map((m) => m.writable)
      .join('; ');

  /** The top folder; its children are resolved up front, since a mount may answer asynchronously. */
  async function root(scope: FsScope): Promise<FsDir> {
    const all: FsNode[] = [];
    for (const m of mounts) all.push({ ...(await m.resolve([], scope))!, title: m.description });
    return {
      kind: 'dir',
      name: '/',
      path: '/',
      link: 'tapedeck://fs/',
      writable: false,
      count: mounts.length,
      list(offset, limit) {
        return { entries: all.slice(offset, offset + limit), more: offset + limit < all.length };
      },
    };
  }

  async function lookup(segments: string[], scope: FsScope): Promise<FsNode | undefined> {
    if (segments.length === 0) return root(scope);
    return byName.get(segments[0])?.resolve(segments.slice(1), scope);
  }

  /** The node at `path`, or NOT_FOUND naming the nearest existing folder. */
  async function resolve(path: string, scope: FsScope): Promise<{ node: FsNode; segments: string[] }> {
    const { segments } = parseFsPath(path);
    const node = await lookup(segments, scope);
    if (node) return { node, segments };
    let near: FsNode | undefined;
    for (let k = segments.length - 1; k >= 0 && !near; k--) near = await lookup(segments.slice(0, k), scope);
    const nearest = near?.path ?? '/';
    const roots =
      segments.length === 1 ? ` The top folders are ${mounts.map((m) => `/${m.name}`).join(', ')}.` : '';
    throw notFound(
      `No ${formatFsPath(segments)}; the nearest existing folder is ${nearest} (list it with ls).${roots}`,
      { path: formatFsPath(segments), nearest },
    );
  }

  function entry(n: FsNode, long: boolean): FsEntry {
    let size: number | null = n.kind === 'file' ? n.size : null;
    // A long listing shows sizes that cost one read; a thread's would cost a full render.
    if (long && n.kind === 'file' && size === null && !n.readLines) size = bytes(n.read());
    const e: FsEntry = {
      name: n.name,
      path: n.path,
      kind: n.kind,
      title: n.title ?? null,
      updated_at: n.updated_at ?? null,
      size,
      count: n.kind === 'dir' ? n.count : null,
    };
    if (long) {
      e.created_at = n.created_at ?? null;
      e.link = n.link;
      e.writable = n.writable;
      e.info = n.info ?? {};
    }
    return e;
  }

  const limitOf = (v: number | undefined, fallback: number, max: number, what: string) => {
    if (v === undefined) return fallback;
    if (!Number.isInteger(v) || v < 1) throw invalidInput(`${what} must be a whole number ≥ 1`);
    return Math.min(v, max);
  };

  function mountFor(segments: string[], verb: 'write' | 'rm'): Mount {
    const m = byName.get(segments[0] ?? '');
    const can = verb === 'write' ? m?.write : m?.remove;
    if (!m || !can)
      throw forbidden(
        `${formatFsPath(segments)} is read-only. Writable: ${writablePlaces()}. Rules change with \`tapedeck rules\`, threads with \`tapedeck thread\`.`,
      );
    return m;
  }

  return {
    /** A folder's children a page at a time (a file lists as itself). */
    async ls(path: string, opts: FsScope & { long?: boolean; max?: number; offset?: number } = {}) {
      const { node } = await resolve(path, opts);
      const long = !!opts.long;
      if (node.kind === 'file')
        return {
          path: node.path,
          kind: 'file',
          count: 1,
          offset: 0,
          entries: [entry(node, long)],
          next_offset: null,
        };
      const limit = limitOf(opts.max, LS_DEFAULT, LS_MAX, 'max');
      const offset = opts.offset ?? 0;
      if (!Number.isInteger(offset) || offset < 0) throw invalidInput('offset must be a whole number ≥ 0');
      const page = node.list(offset, limit);
      return {
        path: node.path,
        kind: 'dir',
        count: node.count,
        offset,
        entries: page.entries.map((e) => entry(e, long)),
        next_offset: page.more ? offset + limit : null,
      };
    },

    /** A file's text, or the lines of a 1-based window (`A-B`); a long thread renders only what is asked. */
    async cat(path: string, opts: FsScope & { lines?: string | [number, number] } = {}): Promise<FsCat> {
      const window = opts.lines === undefined ? null : parseLineWindow(opts.lines);
      const { node } = await resolve(path, opts);
      if (node.kind === 'dir') throw invalidInput(`${node.path} is a folder; list it with ls`);
      if (window && node.readLines) {
        const r = node.readLines(window[0], window[1]);
        const to = r.lines.length ? window[0] + r.lines.length - 1 : 0;
        return {
          path: node.path,
          from: r.lines.length ? window[0] : 0,
          to,
          total_lines: r.total,
          more: r.total === null || to < r.total,
          lines: r.lines,
        };
      }
      const all = splitLines(node.read());
      const [a, b] = window ?? [1, all.length];
      const lines = all.slice(a - 1, b);
      return {
        path: node.path,
        from: lines.length ? a : 0,
        to: lines.length ? a + lines.length - 1 : 0,
        total_lines: all.length,
        more: a - 1 + lines.length < all.length,
        lines,
      };
    },

    async stat(path: string, scope: FsScope = {}): Promise<FsStat> {
      const { node } = await resolve(path, scope);
      const text = node.kind === 'file' ? node.read() : null;
      return {
        path: node.path,
        kind: node.kind,
        title: node.title ?? null,
        size: text === null ? null : bytes(text),
        lines: text === null ? null : splitLines(text).length,
        count: node.kind === 'dir' ? node.count : null,
        created_at: node.created_at ?? null,
        updated_at: node.updated_at ?? null,
        link: node.link,
        writable: node.writable,
        canonical: node.canonical ?? null,
        info: node.info ?? {},
      };
    },

    async find(path: string, opts: FsScope & { name?: string; type?: string; max?: number } = {}) {
      return find((await resolve(path, opts)).node, { ...opts, now });
    },

    async grep(
      pattern: string,
      path: string,
      opts: FsScope & { ignoreCase?: boolean; max?: number; timeoutMs?: number } = {},
    ) {
      return grep((await resolve(path, opts)).node, pattern, { ...opts, now });
    },

    /** Search under a path with each domain's own ranking (memories, threads, skills, wiki, rules). */
    async recall(query: string, path: string, opts: FsScope & { limit?: number } = {}): Promise<FsRecall> {
      if (typeof query !== 'string' || query.trim() === '') throw invalidInput('The query is empty');
      if (query.length > 2000) throw invalidInput('The query is over 2,000 characters');
      const limit = limitOf(opts.limit, RECALL_DEFAULT, RECALL_MAX, 'limit');
      const { node, segments } = await resolve(path, opts);
      const targets = segments.length === 0 ? mounts : [byName.get(segments[0])!];
      const hits: FsRecall['hits'] = [];
      const unsearched: string[] = [];
      for (const m of targets) {
        if (!m.recall) {
          unsearched.push(`/${m.name}`);
          continue;
        }
        for (const h of await m.recall(query, segments.slice(1), opts, limit))
          hits.push({ ...h, source: m.name });
      }
      return { query, path: node.path, hits, unsearched };
    },

    /** Write a file where the tree is writable (see each mount); FORBIDDEN elsewhere. */
    async write(path: string, content: string, scope: FsScope = {}) {
      const { segments } = parseFsPath(path);
      if (typeof content !== 'string') throw invalidInput('The content to write is missing');
      if (bytes(content) > MAX_WRITE_BYTES)
        throw invalidInput(`The content is over ${MAX_WRITE_BYTES / 1024 / 1024} MB`);
      return mountFor(segments, 'write').write!(segments.slice(1), content, scope);
    },

    /** Remove a file where the tree allows it: memories are forgotten, wiki pages tombstoned, skills archived. */
    async rm(path: string, scope: FsScope = {}) {
      const { segments } = parseFsPath(path);
      const m = mountFor(segments, 'rm');
      if (segments.length === 1) throw forbidden(`/${m.name} itself cannot be removed`);
      try {
        return await m.remove!(segments.slice(1), scope);
      } catch (e) {
        // A missing file gets the same nearest-folder message as every other verb.
        if (e instanceof TapedeckError && e.code === 'NOT_FOUND') await resolve(path, scope);
        throw e;
      }
    },
  };
}

export type { FindResult, FsFile, FsNode, FsRemoveResult, FsScope, FsWriteResult, GrepResult, Mount };
