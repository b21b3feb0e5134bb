/**
 * The wiki's full text on PostgreSQL: each page keeps a tsvector built with FTS5's own tokenizer
 * and stemmer (`fts`, GIN-indexed; title A, path B, content D) and its token count (`ntok`); a
 * search takes the GIN index's candidates in one round trip and matches, ranks (bm25(2, 4, 1), ties
 * by id) and cuts them as FTS5 does (fts5-rank.ts), so hits, scores and snippets equal SQLite's.
 */
import { WIKI_COLS, type WikiFullText, type WikiPageSqlRow } from '../wiki-store.js';
import {
  asSql,
  type Bm25Row,
  bm25,
  bm25Stats,
  candidatesSql,
  compileQuery,
  Fts5Row,
  snippet,
} from './fts5-rank.js';
import { TsvectorBuilder } from './fts5-text.js';

/** FTS5's column order and bm25 weights of wiki_fts (SQLite migration 005): path, title, content. */
const BM25_WEIGHTS = [2, 4, 1];
const CONTENT = 2;
/** SQLite's snippet(wiki_fts, 2, '«', '»', '…', 24). */
const SNIPPET = { open: '«', close: '»', ellipsis: '…', tokens: 24 };

export const pgWikiText: WikiFullText = {
  async search(db, query, space, like, limit) {
    const compiled = compileQuery(query);
    const q = asSql((add) => {
      const where = `space = ${add(space)} AND deleted_at IS NULL${like ? ` AND path LIKE ${add(like)} ESCAPE '\\'` : ''}`;
      return candidatesSql(query, compiled, 'wiki_pages', WIKI_COLS, where, add);
    });
    if (!q) return [];
    const rows = await db.all<WikiPageSqlRow & Bm25Row>(q);
    if (rows.length === 0) return [];
    const stats = bm25Stats(rows[0]);
    const hits: { r: WikiPageSqlRow; fts: Fts5Row; bm25: number }[] = [];
    for (const r of rows) {
      if (r.id === null) continue;
      const fts = new Fts5Row(compiled, [r.path, r.title, r.content]);
      if (fts.matchesQuery()) hits.push({ r, fts, bm25: bm25(fts, stats, BM25_WEIGHTS) });
    }
    hits.sort((a, b) => b.bm25 - a.bm25 || Number(a.r.id) - Number(b.r.id));
    return hits.slice(0, limit).map(({ r, fts, bm25 }) => ({
      row: r,
      bm25,
      snippet: snippet(fts, CONTENT, r.content, SNIPPET),
    }));
  },

  indexed(path, title, content) {
    const v = new TsvectorBuilder();
    const ntok = v.text(title, 'A') + v.gap(8).text(path, 'B') + v.gap(8).text(content, 'D');
    return { fts: v.toString(), ntok };
  },
};
