/**
 * The wiki store, once for every backend (schema: migrations/005-wiki.ts on each), written against
 * storage/sql.ts: current text per (space, path), every version, tombstones. The one place the
 * engines differ is full text (`WikiFullText`, given by the backend): SQLite's FTS5 table follows
 * the pages through triggers and ranks itself; PostgreSQL's store keeps a tsvector beside each page
 * and ranks as FTS5 does. A write's read of a page first takes that page's advisory lock on
 * PostgreSQL, held to the end of the transaction (SQLite's IMMEDIATE transaction already excludes
 * other writers): writers of one page queue, so versions and `expected_version` checks hold
 * without a store-wide lock, also for a page not created yet (a row lock would have no row).
 */
import { TapedeckError } from '../core/errors.js';
import type { ParsedQuery } from '../core/query.js';
import type {
  WikiPageRow,
  WikiReader,
  WikiSearchRow,
  WikiStore,
  WikiVersionRow,
  WikiWriter,
} from '../ports/wiki-store.js';
import { type Sql, type SqlDb, type SqlQueries, sql } from './sql.js';

/** A wiki_pages row as both engines return it (PostgreSQL's BIGINT id arrives as a string). */
export interface WikiPageSqlRow {
  id: number | string;
  space: string;
  path: string;
  title: string;
  content: string;
  version: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

/** The page columns every query of this store selects (aliased by `p.` where joined). */
export const WIKI_COLS = 'id, space, path, title, content, version, created_at, updated_at, deleted_at';

/** Full-text search of pages on one engine: the dialect difference, kept in one small place. */
export interface WikiFullText {
  /**
   * Live pages of `space` matching `query` (under the folder when `like`, a LIKE pattern with
   * `\` escapes, is given), best first, at most `limit`; bm25 higher is better, the snippet marks
   * the query's words «like this».
   */
  search(
    db: SqlQueries,
    query: ParsedQuery,
    space: string,
    like: string | null,
    limit: number,
  ): Promise<{ row: WikiPageSqlRow; bm25: number; snippet: string }[]>;
  /** The search vector and token count a write also sets, where no trigger keeps an index (PostgreSQL). */
  indexed?(path: string, title: string, content: string): { fts: string; ntok: number };
}

const toPage = (r: WikiPageSqlRow): WikiPageRow => ({
  id: Number(r.id),
  space: r.space,
  path: r.path,
  title: r.title,
  content: r.content,
  version: Number(r.version),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  deletedAt: r.deleted_at ?? null,
});

interface VersionSqlRow {
  version: number;
  title: string;
  content: string;
  created_at: string;
}

const toVersion = (r: VersionSqlRow): WikiVersionRow => ({
  version: Number(r.version),
  title: r.title,
  content: r.content,
  createdAt: r.created_at,
});

/** The advisory-lock namespace of wiki pages (two-int4 keys: apart from the one-bigint locks). */
const LOCK_SPACE = 0x77696b69; // 'wiki'

/** A page's lock key: FNV-1a of space and path, as a signed 32-bit integer. */
function pageKey(space: string, path: string): number {
  let h = 0x811c9dc5;
  for (const b of Buffer.from(`${space}\u0000${path}`)) h = Math.imul(h ^ b, 0x01000193);
  return h | 0;
}

/** LIKE pattern for paths under a folder, with LIKE's wildcards escaped. */
const under = (prefix: string) => `${prefix.replace(/[\\%_]/g, '\\$&')}/%`;

const COLS = sql.raw(WIKI_COLS);

/** The wiki store over either backend's database; `text` is that engine's full-text search. */
export function createWikiStore(db: SqlDb, text: WikiFullText): WikiStore {
  const locks = db.dialect === 'postgres';

  const reader = (q: SqlQueries, writing = false): WikiReader => ({
    async get(space, path) {
      if (writing && locks)
        await q.one(sql`SELECT pg_advisory_xact_lock(${LOCK_SPACE}::int4, ${pageKey(space, path)}::int4)`);
      const r = await q.one<WikiPageSqlRow>(
        sql`SELECT ${COLS} FROM wiki_pages WHERE space = ${space} AND path = ${path}`,
      );
      return r ? toPage(r) : undefined;
    },
    async list(space, prefix) {
      const folder: Sql = prefix ? sql` AND path LIKE ${under(prefix)} ESCAPE '\\'` : sql``;
      const rows = await q.all<WikiPageSqlRow>(
        sql`SELECT ${COLS} FROM wiki_pages WHERE space = ${space} AND deleted_at IS NULL${folder} ORDER BY path`,
      );
      return rows.map(toPage);
    },
    async version(pageId, version) {
      const r = await q.one<VersionSqlRow>(
        sql`SELECT version, title, content, created_at FROM wiki_versions
            WHERE page_id = ${pageId} AND version = ${version}`,
      );
      return r ? toVersion(r) : undefined;
    },
    async versions(pageId) {
      const rows = await q.all<VersionSqlRow>(
        sql`SELECT version, title, content, created_at FROM wiki_versions WHERE page_id = ${pageId} ORDER BY version`,
      );
      return rows.map(toVersion);
    },
    async search(query, space, prefix, limit): Promise<WikiSearchRow[]> {
      const hits = await text.search(q, query, space, prefix ? under(prefix) : null, limit);
      return hits.map((h) => ({ page: toPage(h.row), bm25: h.bm25, snippet: h.snippet }));
    },
  });

  const writer = (tx: SqlQueries): WikiWriter => ({
    ...reader(tx, true),
    async insertPage(row) {
      const ix = text.indexed?.(row.path, row.title, row.content);
      try {
        const r = await tx.one<{ id: number | string }>(sql`
          INSERT INTO wiki_pages (space, path, title, content, version, created_at, updated_at, deleted_at${ix ? sql`, fts, ntok` : sql``})
          VALUES (${row.space}, ${row.path}, ${row.title}, ${row.content}, ${row.version}, ${row.createdAt},
                  ${row.updatedAt}, ${row.deletedAt}${ix ? sql`, ${ix.fts}, ${ix.ntok}` : sql``})
          RETURNING id`);
        return Number(r!.id);
      } catch (e) {
        // Two writers creating one path at once (PostgreSQL: the row to lock did not exist yet).
        if (e instanceof TapedeckError && e.code === 'CONFLICT')
          throw new TapedeckError(
            'CONFLICT',
            `The wiki page ${row.path} was just created by another writer; read it again before writing`,
          );
        throw e;
      }
    },
    async updatePage(id, row) {
      // The index covers the path too (which never changes): one more read, only where an index is
      // kept (an optional call evaluates no argument when there is no `indexed`).
      const ix = text.indexed?.(
        (await tx.one<{ path: string }>(sql`SELECT path FROM wiki_pages WHERE id = ${id}`))?.path ?? '',
        row.title,
        row.content,
      );
      await tx.run(sql`
        UPDATE wiki_pages SET title = ${row.title}, content = ${row.content}, version = ${row.version},
          updated_at = ${row.updatedAt}, deleted_at = NULL${ix ? sql`, fts = ${ix.fts}, ntok = ${ix.ntok}` : sql``}
        WHERE id = ${id}`);
    },
    async insertVersion(pageId, v) {
      await tx.run(sql`
        INSERT INTO wiki_versions (page_id, version, title, content, created_at)
        VALUES (${pageId}, ${v.version}, ${v.title}, ${v.content}, ${v.createdAt})`);
    },
    async markDeleted(id, at) {
      await tx.run(sql`UPDATE wiki_pages SET deleted_at = ${at}, updated_at = ${at} WHERE id = ${id}`);
    },
  });

  return {
    ...reader(db),
    write: (fn) => db.transaction((tx) => fn(writer(tx))),
  };
}
