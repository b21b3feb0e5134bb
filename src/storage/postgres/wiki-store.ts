/**
 * PostgreSQL implementation of the WikiStore port (schema: migrations/005-wiki.ts), the twin of
 * sqlite/wiki-store.ts. Search ranks with FTS5's bm25 and cuts FTS5's snippet (fts5-rank.ts), so
 * hits, scores and snippets equal SQLite's — one round trip per search.
 */
import { TapedeckError } from '../../core/errors.js';
import type { ParsedQuery } from '../../core/query.js';
import type {
  WikiPageRow,
  WikiReader,
  WikiSearchRow,
  WikiStore,
  WikiVersionRow,
  WikiWriter,
} from '../../ports/wiki-store.js';
import { type Bm25Row, bm25, bm25Stats, candidatesSql, compileQuery, Fts5Row, snippet } from './fts5-rank.js';
import { TsvectorBuilder } from './fts5-text.js';
import type { PgStore } from './open.js';
import { isUniqueViolation, pgGuard } from './skill-wiki-guard.js';
import { Params } from './sql-params.js';
import type { PgSync } from './sync-client.js';

const COLS = 'id, space, path, title, content, version, created_at, updated_at, deleted_at';

/** FTS5's column order and bm25 weights of wiki_fts (SQLite migration 005): path, title, content. */
const BM25_WEIGHTS = [2, 4, 1];
const CONTENT = 2;
/** SQLite's snippet(wiki_fts, 2, '«', '»', '…', 24). */
const SNIPPET = { open: '«', close: '»', ellipsis: '…', tokens: 24 };

/** The search vector and token count of a page's text. */
function ftsOf(path: string, title: string, content: string): [string, number] {
  const v = new TsvectorBuilder();
  const n = v.text(title, 'A') + v.gap(8).text(path, 'B') + v.gap(8).text(content, 'D');
  return [v.toString(), n];
}

const toPage = (r: Record<string, unknown>): WikiPageRow => ({
  id: r.id as number,
  space: r.space as string,
  path: r.path as string,
  title: r.title as string,
  content: r.content as string,
  version: r.version as number,
  createdAt: r.created_at as string,
  updatedAt: r.updated_at as string,
  deletedAt: (r.deleted_at as string | null) ?? null,
});

const toVersion = (r: Record<string, unknown>): WikiVersionRow => ({
  version: r.version as number,
  title: r.title as string,
  content: r.content as string,
  createdAt: r.created_at as string,
});

/** LIKE pattern for paths under a folder, with LIKE's wildcards escaped. */
const under = (prefix: string) => `${prefix.replace(/[\\%_]/g, '\\$&')}/%`;

/**
 * SQLite's search: live pages of the space (under the folder) ranked by FTS5's bm25(2, 4, 1), ties
 * by id, each with FTS5's snippet of its text. One round trip: the GIN index returns the pages
 * that may match, fts5-rank.ts matches, ranks and cuts them as FTS5 does.
 */
function search(
  pg: PgSync,
  query: ParsedQuery,
  space: string,
  prefix: string,
  limit: number,
): WikiSearchRow[] {
  const p = new Params();
  const compiled = compileQuery(query);
  let where = `space = ${p.add(space)} AND deleted_at IS NULL`;
  if (prefix) where += ` AND path LIKE ${p.add(under(prefix))} ESCAPE '\\'`;
  const sql = candidatesSql(query, compiled, 'wiki_pages', COLS, where, (v) => p.add(v));
  if (!sql) return [];
  const rows = pg.query<Record<string, unknown> & Bm25Row>(sql, p.values);
  const stats = bm25Stats(rows[0]!);
  const hits: { r: Record<string, unknown>; fts: Fts5Row; bm25: number }[] = [];
  for (const r of rows) {
    if (r.id === null) continue;
    const fts = new Fts5Row(compiled, [r.path as string, r.title as string, r.content as string]);
    if (fts.matchesQuery()) hits.push({ r, fts, bm25: bm25(fts, stats, BM25_WEIGHTS) });
  }
  hits.sort((a, b) => b.bm25 - a.bm25 || (a.r.id as number) - (b.r.id as number));
  return hits.slice(0, limit).map(({ r, fts, bm25 }) => ({
    page: toPage(r),
    bm25,
    snippet: snippet(fts, CONTENT, r.content as string, SNIPPET),
  }));
}

export function createPgWikiStore({ pg }: PgStore): WikiStore {
  const reader: WikiReader = {
    get(space, path) {
      const r = pg.one(`SELECT ${COLS} FROM wiki_pages WHERE space = $1 AND path = $2`, [space, path]);
      return r ? toPage(r) : undefined;
    },
    list(space, prefix) {
      const rows = prefix
        ? pg.query(
            `SELECT ${COLS} FROM wiki_pages WHERE space = $1 AND deleted_at IS NULL AND path LIKE $2 ESCAPE '\\' ORDER BY path`,
            [space, under(prefix)],
          )
        : pg.query(`SELECT ${COLS} FROM wiki_pages WHERE space = $1 AND deleted_at IS NULL ORDER BY path`, [
            space,
          ]);
      return rows.map(toPage);
    },
    version(pageId, version) {
      const r = pg.one(
        'SELECT version, title, content, created_at FROM wiki_versions WHERE page_id = $1 AND version = $2',
        [pageId, version],
      );
      return r ? toVersion(r) : undefined;
    },
    versions: (pageId) =>
      pg
        .query(
          'SELECT version, title, content, created_at FROM wiki_versions WHERE page_id = $1 ORDER BY version',
          [pageId],
        )
        .map(toVersion),
    search: (query, space, prefix, limit) => search(pg, query, space, prefix, limit),
  };

  const writer: WikiWriter = {
    ...reader,
    insertPage(row) {
      try {
        return pg.one<{ id: number }>(
          `INSERT INTO wiki_pages (space, path, title, content, version, created_at, updated_at, deleted_at, fts, ntok)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
          [
            row.space,
            row.path,
            row.title,
            row.content,
            row.version,
            row.createdAt,
            row.updatedAt,
            row.deletedAt,
            ...ftsOf(row.path, row.title, row.content),
          ],
        )!.id;
      } catch (e) {
        // Only reachable by a writer outside the store's write lock.
        if (isUniqueViolation(e))
          throw new TapedeckError(
            'CONFLICT',
            `The wiki page ${row.path} was just created by another writer; read it again before writing`,
          );
        throw e;
      }
    },
    updatePage(id, row) {
      // The vector covers the path too (which never changes): one more round trip, on a write.
      const path = pg.one<{ path: string }>('SELECT path FROM wiki_pages WHERE id = $1', [id])?.path ?? '';
      const [fts, ntok] = ftsOf(path, row.title, row.content);
      pg.run(
        `UPDATE wiki_pages SET title = $1, content = $2, version = $3, updated_at = $4, deleted_at = NULL,
           fts = $5, ntok = $6 WHERE id = $7`,
        [row.title, row.content, row.version, row.updatedAt, fts, ntok, id],
      );
    },
    insertVersion(pageId, v) {
      pg.run(
        'INSERT INTO wiki_versions (page_id, version, title, content, created_at) VALUES ($1, $2, $3, $4, $5)',
        [pageId, v.version, v.title, v.content, v.createdAt],
      );
    },
    markDeleted(id, at) {
      pg.run('UPDATE wiki_pages SET deleted_at = $1, updated_at = $1 WHERE id = $2', [at, id]);
    },
  };

  return {
    get: (...a) => pgGuard(() => reader.get(...a)),
    list: (...a) => pgGuard(() => reader.list(...a)),
    version: (...a) => pgGuard(() => reader.version(...a)),
    versions: (...a) => pgGuard(() => reader.versions(...a)),
    search: (...a) => pgGuard(() => reader.search(...a)),
    write: (fn) => pgGuard(() => pg.transaction(() => fn(writer), 'write')),
  };
}
