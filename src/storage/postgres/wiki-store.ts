/**
 * PostgreSQL implementation of the WikiStore port (schema: migrations/005-wiki.ts), the twin of
 * sqlite/wiki-store.ts. Search ranks with ts_rank over the weighted `fts` column (title, path,
 * content as FTS5's bm25(4, 2, 1) weighs them) and cuts the snippet with ts_headline, marked
 * «like this» with FTS5's `…` where the excerpt leaves text out — one round trip per search.
 */
import { HippoError } from '../../core/errors.js';
import type { ParsedQuery } from '../../core/query.js';
import type {
  WikiPageRow,
  WikiReader,
  WikiSearchRow,
  WikiStore,
  WikiVersionRow,
  WikiWriter,
} from '../../ports/wiki-store.js';
import type { PgStore } from './open.js';
import { anyTermsTsquery, excludedTsquery, Params } from './skill-tsquery.js';
import { isUniqueViolation, pgGuard } from './skill-wiki-guard.js';
import type { PgSync } from './sync-client.js';

const COLS = 'id, space, path, title, content, version, created_at, updated_at, deleted_at';

/** ts_rank weights {D, C, B, A}: content 1, path 2, title 4. */
const RANK_WEIGHTS = "'{0.25, 0, 0.5, 1}'";

/**
 * About FTS5's snippet(…, 24): one excerpt of up to 24 words. The marks are control characters
 * (turned into « » afterwards) so the excerpt can be found in the page even when it holds « ».
 */
const HEADLINE =
  '\'StartSel="\u0001", StopSel="\u0002", MaxWords=24, MinWords=12, ShortWord=0, MaxFragments=1\'';

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

const WORD = /[\p{L}\p{N}]/u;

/**
 * FTS5's snippet shape: text the excerpt leaves out becomes `…`, but an excerpt that reaches the
 * start or end of the page keeps what lies beyond its first or last word (`# ` before a heading,
 * the final `.`).
 */
function fts5Shape(headline: string, content: string): string {
  const marked = headline.replace(/\u0001/g, '«').replace(/\u0002/g, '»');
  const plain = headline.replace(/[\u0001\u0002]/g, '');
  const at = plain.trim() === '' ? -1 : content.indexOf(plain);
  if (at < 0) return marked;
  const before = content.slice(0, at);
  const after = content.slice(at + plain.length);
  return `${WORD.test(before) ? '…' : before}${marked}${WORD.test(after) ? '…' : after}`;
}

function search(
  pg: PgSync,
  query: ParsedQuery,
  space: string,
  prefix: string,
  limit: number,
): WikiSearchRow[] {
  const p = new Params();
  const any = anyTermsTsquery(query, p);
  if (!any) return [];
  const excluded = excludedTsquery(query, p);
  const rows = pg.query<Record<string, unknown>>(
    `WITH q AS (SELECT ${any} AS q${excluded ? `, ${excluded} AS ex` : ''}),
     r AS (
       SELECT ${COLS}, ts_rank(${RANK_WEIGHTS}, p.fts, q.q, 1) AS rank
       FROM wiki_pages p, q
       WHERE p.fts @@ q.q AND p.space = ${p.add(space)} AND p.deleted_at IS NULL
         ${prefix ? `AND p.path LIKE ${p.add(under(prefix))} ESCAPE '\\'` : ''}
         ${excluded ? 'AND NOT (p.fts @@ q.ex)' : ''}
       ORDER BY rank DESC, p.id LIMIT ${p.add(limit)}
     )
     SELECT r.*, ts_headline('hippo_kb', r.content, q.q, ${HEADLINE}) AS snip
     FROM r, q ORDER BY r.rank DESC, r.id`,
    p.values,
  );
  return rows.map((r) => ({
    page: toPage(r),
    bm25: r.rank as number,
    snippet: fts5Shape(r.snip as string, r.content as string),
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
          `INSERT INTO wiki_pages (space, path, title, content, version, created_at, updated_at, deleted_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
          [
            row.space,
            row.path,
            row.title,
            row.content,
            row.version,
            row.createdAt,
            row.updatedAt,
            row.deletedAt,
          ],
        )!.id;
      } catch (e) {
        // Only reachable by a writer outside the store's write lock.
        if (isUniqueViolation(e))
          throw new HippoError(
            'CONFLICT',
            `The wiki page ${row.path} was just created by another writer; read it again before writing`,
          );
        throw e;
      }
    },
    updatePage(id, row) {
      pg.run(
        'UPDATE wiki_pages SET title = $1, content = $2, version = $3, updated_at = $4, deleted_at = NULL WHERE id = $5',
        [row.title, row.content, row.version, row.updatedAt, id],
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
