/**
 * The shapes of Tapedeck's virtual tree: a mount per domain (/memories, /threads, …) resolves path
 * components to nodes. A folder lists its children a page at a time (a folder may hold 100,000
 * memories); a file renders its text only when read.
 */
import { TapedeckError } from '../../core/errors.js';
import { formatFsPath } from '../../core/fs-path.js';

/** Where a call works: an explicit space, or the one configured for the caller's directory. */
export interface FsScope {
  space?: string;
  /** The caller's working directory (CLI), used for the per-project default space. */
  cwd?: string;
}

/** What every node says about itself (what `stat` and `ls --long` show). */
export interface FsMeta {
  path: string;
  name: string;
  title?: string | null;
  created_at?: string | null;
  updated_at?: string | null;
  /** `tapedeck://memory/<id>`, `tapedeck://thread/<id>`, else `tapedeck://fs<path>`. */
  link: string;
  writable: boolean;
  /** For a record seen through a view folder (by-label, by-date, …): its by-id path. */
  canonical?: string;
  /** Facts worth a glance: status, stage, version, steps … */
  info?: Record<string, string | number | boolean | null>;
}

export interface FsFile extends FsMeta {
  kind: 'file';
  /** Size in bytes (UTF-8) when cheap to know; null when it needs a full render (a thread). */
  size: number | null;
  read(): string;
  /**
   * Lines `from`..`to` (1-based, inclusive) without rendering the rest, for files that can be
   * large (a thread); `total` is null when the file goes on past `to` and was not counted.
   */
  readLines?(from: number, to: number): { lines: string[]; total: number | null };
}

export interface FsDir extends FsMeta {
  kind: 'dir';
  /** How many children, when cheap to know. */
  count: number | null;
  /** A page of children in listing order; `more` when the folder goes on. */
  list(offset: number, limit: number): { entries: FsNode[]; more: boolean };
  /**
   * A view of records that also live elsewhere in the same mount (by-label, by-date, …): grep
   * and recall walking from above skip it, so each record is searched once.
   */
  view?: boolean;
}

export type FsNode = FsFile | FsDir;

/** What a write did. */
export interface FsWriteResult {
  path: string;
  /** Where the record now lives (a new memory's by-id path). */
  canonical: string;
  link: string;
  status: 'created' | 'updated' | 'superseded' | 'unchanged' | 'deduplicated' | 'restored';
  /** One line for people: what happened and how to undo or follow it. */
  note: string;
}

export interface FsRemoveResult {
  path: string;
  status: 'forgotten' | 'removed' | 'archived';
  /** How to get it back. */
  undo: string;
}

export interface RecallHit {
  path: string;
  title: string;
  snippet: string;
  score: number;
}

/** A domain mounted under `/<name>`. Paths arrive as components below the mount. */
export interface Mount {
  name: string;
  /** One line shown by `ls /`. */
  description: string;
  /** Where this mount accepts writes, for FORBIDDEN messages; null when read-only. */
  writable: string | null;
  /** A mount over an async store (rules, working memory, wiki) answers with a promise; the others at once. */
  resolve(segments: string[], scope: FsScope): FsNode | undefined | Promise<FsNode | undefined>;
  write?(segments: string[], content: string, scope: FsScope): FsWriteResult | Promise<FsWriteResult>;
  remove?(segments: string[], scope: FsScope): FsRemoveResult | Promise<FsRemoveResult>;
  /** Search under these components with the domain's own search; undefined if it has none. */
  recall?(
    query: string,
    segments: string[],
    scope: FsScope,
    limit: number,
  ): RecallHit[] | Promise<RecallHit[]>;
}

export const pathOf = (mount: string, rest: readonly string[]) => formatFsPath([mount, ...rest]);
export const fsLink = (path: string) => `tapedeck://fs${path}`;

export const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/** A folder whose children are a fixed, short list. */
export function staticDir(meta: Omit<FsMeta, 'link'> & { link?: string }, children: () => FsNode[]): FsDir {
  return {
    ...meta,
    link: meta.link ?? fsLink(meta.path),
    kind: 'dir',
    count: null,
    list(offset, limit) {
      const all = children();
      return { entries: all.slice(offset, offset + limit), more: offset + limit < all.length };
    },
  };
}

/** A folder paged by a fetch of `limit + 1` items (the extra one says whether more follow). */
export function pagedDir(
  meta: Omit<FsMeta, 'link'> & { link?: string; count?: number | null; view?: boolean },
  fetch: (offset: number, limit: number) => FsNode[],
): FsDir {
  return {
    ...meta,
    link: meta.link ?? fsLink(meta.path),
    kind: 'dir',
    count: meta.count ?? null,
    list(offset, limit) {
      const got = fetch(offset, limit + 1);
      return { entries: got.slice(0, limit), more: got.length > limit };
    },
  };
}

export function forbidden(message: string): TapedeckError {
  return new TapedeckError('FORBIDDEN', message);
}

/** Record names in the tree: `<id>.md`. */
export function idOfFile(name: string | undefined): string | null {
  if (!name?.endsWith('.md') || name.length <= 3) return null;
  return name.slice(0, -3);
}
