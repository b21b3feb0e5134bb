/**
 * Storage for wiki pages: current text per (space, path), every version, tombstones. One store for
 * both backends (storage/wiki-store.ts); async.
 */
import type { ParsedQuery } from '../core/query.js';

export interface WikiPageRow {
  id: number;
  space: string;
  path: string;
  title: string;
  content: string;
  version: number;
  createdAt: string;
  updatedAt: string;
  /** Set when the page was removed (a tombstone; its versions stay readable). */
  deletedAt: string | null;
}

export interface WikiVersionRow {
  version: number;
  title: string;
  content: string;
  createdAt: string;
}

export interface WikiSearchRow {
  page: WikiPageRow;
  bm25: number;
  /** An excerpt with the query's words marked «like this». */
  snippet: string;
}

export interface WikiReader {
  /** The page at `path`, tombstoned or not. */
  get(space: string, path: string): Promise<WikiPageRow | undefined>;
  /** Live pages whose path is under `prefix/` (every page when prefix is ''), by path. */
  list(space: string, prefix: string): Promise<WikiPageRow[]>;
  version(pageId: number, version: number): Promise<WikiVersionRow | undefined>;
  versions(pageId: number): Promise<WikiVersionRow[]>;
  /** Live pages matching the query, best first; `bm25` higher is better. */
  search(query: ParsedQuery, space: string, prefix: string, limit: number): Promise<WikiSearchRow[]>;
}

export interface WikiWriter extends WikiReader {
  insertPage(row: Omit<WikiPageRow, 'id'>): Promise<number>;
  /** Replace the current text (and revive a tombstone). */
  updatePage(
    id: number,
    row: Pick<WikiPageRow, 'title' | 'content' | 'version' | 'updatedAt'>,
  ): Promise<void>;
  insertVersion(pageId: number, v: WikiVersionRow): Promise<void>;
  markDeleted(id: number, at: string): Promise<void>;
}

export interface WikiStore extends WikiReader {
  /**
   * Run `fn` in one write transaction: all of it or nothing (inside another transaction of the
   * database, a savepoint of it). Inside, await only the writer's calls.
   */
  write<T>(fn: (w: WikiWriter) => Promise<T>): Promise<T>;
}
