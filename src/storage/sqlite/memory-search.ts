/**
 * Bounded full-text candidate retrieval for memories.
 *
 * FTS5's bm25 is costly in two ways: it counts every memory holding each phrase of the MATCH (for
 * the IDF), and it scores every match before `ORDER BY … LIMIT` can cut. One word found in 20,000
 * of 100,000 memories makes a ranked query take tens of milliseconds. So a search first probes how
 * common each term is (a count that stops at RARE_DF + 1), then:
 *
 * - Distinctive terms (each in at most RARE_DF memories, together at most RANK_BUDGET): bm25 is
 *   computed over those terms alone, for every one of their matches that passes the filters (a
 *   bounded set); a match is "strict" when it also holds every other term of the query.
 * - Only common terms: bm25 would say little anyway (a low IDF everywhere), so the newest `pool`
 *   matches in the filter are taken (FTS5 walks its doclists newest-first and stops), with a flat
 *   relevance; those holding every term are strict. Importance and recency then order them.
 *
 * Filters are checked in SQL on every row. Unranked matches also carry them as tags (type, labels,
 * project, a non-active status, and the space when it is small), so FTS5 intersects doclists
 * instead of handing over each memory to be rejected; ranked matches never do, because bm25 would
 * count every tagged memory.
 */
import { identParts, joinedForm } from '../../core/idents.js';
import type { ParsedQuery, QueryTerm } from '../../core/query.js';
import type { MemoryCandidate, MemoryFilter } from '../../ports/memory-store.js';
import { termExpr } from './fts-query.js';
import { filterSql, type Prepare, quote, tag, tagExpr } from './memory-sql.js';

/** A term in at most this many memories is distinctive enough to rank by bm25. */
export const RARE_DF = 300;
/** At most this many matches are scored by bm25 in one search. */
export const RANK_BUDGET = 600;
const BM25 = 'bm25(memories_fts, 2.0, 1.0, 1.5, 0.5, 0.0)';
/** A space of at most this many memories is put into unranked matches as a tag. */
const SMALL_SPACE = 2000;
/** How long a space's size is reused: it only steers the plan, never the answer. */
const SIZE_TTL_MS = 60_000;

/** Per-store memo: is this space small (see SMALL_SPACE)? */
export type SpaceSizes = Map<string, { small: boolean; at: number }>;

interface LightRow {
  rowid: number;
  id: string;
  importance: number;
  updated_at: string;
  s?: number;
}

/** The single phrase a term is ranked by: an identifier by its joined form (`src_db_ts`). */
function rankPhrase(t: QueryTerm): string {
  if (t.kind !== 'ident') return termExpr(t);
  const joined = joinedForm(t.text);
  if (joined) return quote(joined);
  const parts = identParts(t.text);
  return parts.length ? quote(parts.join(' ')) : '';
}

export function searchCandidates(
  st: Prepare,
  query: ParsedQuery,
  filter: MemoryFilter,
  pool: number,
  sizes: SpaceSizes = new Map(),
): MemoryCandidate[] {
  const terms = query.terms
    .map((t) => ({ expr: termExpr(t), rank: rankPhrase(t) }))
    .filter((x) => x.expr && x.rank);
  if (terms.length === 0) return [];
  const count = (expr: string, cap: number) =>
    (
      st('SELECT count(*) AS n FROM (SELECT rowid FROM memories_fts WHERE memories_fts MATCH ? LIMIT ?)').get(
        expr,
        cap + 1,
      ) as { n: number }
    ).n;

  const excluded = query.excluded.map(termExpr).filter(Boolean);
  const not = (core: string) => (excluded.length ? `(${core}) NOT (${excluded.join(' OR ')})` : core);
  const small = (space: string) => {
    const hit = sizes.get(space);
    if (hit && Date.now() - hit.at < SIZE_TTL_MS) return hit.small;
    if (sizes.size > 100) sizes.clear();
    const isSmall = count(`tags : ${quote(tag.space(space))}`, SMALL_SPACE) <= SMALL_SPACE;
    sizes.set(space, { small: isSmall, at: Date.now() });
    return isSmall;
  };
  const tags = tagExpr(filter, { space: !!filter.spaces?.every(small) });
  const tagged = (e: string) => (tags.length ? `(${e}) AND ${tags.join(' AND ')}` : e);
  const { where, params } = filterSql(filter);
  const anyExpr = not(terms.map((x) => x.expr).join(' OR '));
  const allExpr = not(terms.map((x) => x.expr).join(' AND '));
  const single = terms.length === 1;

  /** Newest matches of an expression within the filter, unranked. */
  const newest = (expr: string, n: number) =>
    st(
      `SELECT f.rowid, m.id, m.importance, m.updated_at FROM memories_fts f JOIN memories m ON m.mid = f.rowid
       WHERE memories_fts MATCH ? AND ${where} ORDER BY f.rowid DESC LIMIT ?`,
    ).all(tagged(expr), ...params, n) as LightRow[];

  const rare: string[] = [];
  let budget = RANK_BUDGET;
  for (const p of terms.map((x) => ({ ...x, df: count(x.rank, RARE_DF) })).sort((a, b) => a.df - b.df)) {
    if (p.df > RARE_DF || p.df > budget) break;
    rare.push(p.rank);
    budget -= p.df;
  }

  const out = new Map<string, MemoryCandidate>();
  const add = (r: LightRow, bm25: number, strict: boolean) => {
    if (!out.has(r.id))
      out.set(r.id, { id: r.id, bm25, strict, importance: r.importance, updated_at: r.updated_at });
  };
  const rowids = (expr: string) =>
    new Set(
      (
        st(`SELECT rowid FROM memories_fts WHERE memories_fts MATCH ? LIMIT ${RANK_BUDGET}`).all(expr) as {
          rowid: number;
        }[]
      ).map((r) => r.rowid),
    );

  if (rare.length > 0) {
    // Only the distinctive phrases go into the ranked MATCH: bm25 counts every phrase it holds.
    const rareExpr = rare.join(' OR ');
    const ranked = st(
      `SELECT f.rowid, m.id, m.importance, m.updated_at, ${BM25} AS s FROM memories_fts f
       JOIN memories m ON m.mid = f.rowid WHERE memories_fts MATCH ? AND ${where}`,
    ).all(rareExpr, ...params) as LightRow[];
    // Exclusions and strictness are unranked matches over the same bounded set.
    const allowed = excluded.length ? rowids(not(rareExpr)) : null;
    const strict = single ? null : rowids(allExpr);
    let floor = Number.POSITIVE_INFINITY;
    for (const r of ranked) {
      if (allowed && !allowed.has(r.rowid)) continue;
      const bm25 = -(r.s ?? 0);
      floor = Math.min(floor, bm25);
      add(r, bm25, single || !!strict?.has(r.rowid));
    }
    if (out.size >= pool) return [...out.values()];
    // Too few in this filter: fill up from the common terms, below every bm25-ranked match.
    const below = Number.isFinite(floor) ? floor / 2 : 0.5;
    for (const r of newest(anyExpr, pool)) add(r, below, false);
    return [...out.values()];
  }

  // Only common terms: the newest matches in the filter; those holding every term are strict
  // (checked only across the rowid range those matches span, so the check stays bounded too).
  const recent = newest(anyExpr, pool);
  let strict: Set<number> | null = null;
  if (!single && recent.length) {
    const low = Math.min(...recent.map((r) => r.rowid));
    strict = new Set(
      (
        st('SELECT rowid FROM memories_fts WHERE memories_fts MATCH ? AND rowid >= ?').all(allExpr, low) as {
          rowid: number;
        }[]
      ).map((r) => r.rowid),
    );
  }
  for (const r of recent) add(r, 1, single || !!strict?.has(r.rowid));
  return [...out.values()];
}
