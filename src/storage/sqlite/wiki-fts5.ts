/**
 * The wiki's full text on SQLite: the FTS5 table `wiki_fts` (migration 005) follows the pages
 * through triggers, ranks with bm25(2, 4, 1) and cuts the snippet itself.
 */
import { sql } from '../sql.js';
import { WIKI_COLS, type WikiFullText, type WikiPageSqlRow } from '../wiki-store.js';
import { anyTermsExpr } from './fts-query.js';

const COLS = sql.raw(
  WIKI_COLS.split(', ')
    .map((c) => `p.${c}`)
    .join(', '),
);

export const sqliteWikiText: WikiFullText = {
  async search(db, query, space, like, limit) {
    const expr = anyTermsExpr(query);
    if (!expr) return [];
    const rows = await db.all<WikiPageSqlRow & { rank: number; snip: string }>(sql`
      SELECT ${COLS}, f.rank AS rank, snippet(wiki_fts, 2, '«', '»', '…', 24) AS snip
      FROM wiki_fts f JOIN wiki_pages p ON p.id = f.rowid
      WHERE wiki_fts MATCH ${expr} AND p.space = ${space} AND p.deleted_at IS NULL
        ${like ? sql`AND p.path LIKE ${like} ESCAPE '\\'` : sql``}
      ORDER BY f.rank LIMIT ${limit}`);
    return rows.map((r) => ({ row: r, bm25: -r.rank, snippet: r.snip }));
  },
};
