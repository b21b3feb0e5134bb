/**
 * Bounded full-text candidates for memories on PostgreSQL: the SQLite store's strategy
 * (storage/sqlite/memory-search.ts) in two round trips, each statement with its tsqueries as
 * values so the planner can weigh them (a GIN lookup for a rare term, a short scan for a common one).
 *
 * - One statement probes every term's document frequency with a count that stops at RARE_DF + 1.
 * - Distinctive terms (each in at most RARE_DF memories, together at most RANK_BUDGET, taken
 *   rarest first) are ranked: every match of them that passes the filter is scored, bm25-like,
 *   as Σ idf(term) × ts_rank_cd(term) (FTS5's idf, ts_rank_cd with the column weights and log
 *   length normalization for the saturating, length-normalized term frequency). A match is strict
 *   when it holds every term of the query.
 * - When they give fewer than `pool` matches (or there are none), the newest `pool` matches of
 *   any term in the filter are added: below every ranked match (the caller sets the relevance),
 *   or, with only common terms, at a flat relevance and strict when they hold every term.
 *
 * Excluded terms remove a match everywhere. The filter is the same SQL as `list` uses.
 */
import type { ParsedQuery } from '../../core/query.js';
import type { MemoryCandidate, MemoryFilter } from '../../ports/memory-store.js';
import { filterSql, Params } from './memory-sql.js';
import { allOf, anyOf, filterTags, RANK_WEIGHTS, rankQuery, termQuery, without } from './memory-text.js';
import type { PgSync } from './sync-client.js';

/** A term in at most this many memories is distinctive enough to rank (as on SQLite). */
export const RARE_DF = 300;
/** At most this many matches are scored in one search. */
export const RANK_BUDGET = 600;

interface CandidateRow {
  tier: 'ranked' | 'newest';
  id: string;
  importance: number;
  updated_at: string;
  s: number | null;
  strict: boolean;
}

/**
 * Per-store memo of terms found common (in more than RARE_DF memories), until a time: a term's
 * count only falls when memories are purged, and probing a common term costs a few milliseconds
 * of index work, so a remembered one is not probed again for a while.
 */
export type CommonTerms = Map<string, number>;
const COMMON_TTL_MS = 5 * 60_000;
const COMMON_MAX = 10_000;

export function searchCandidates(
  pg: PgSync,
  query: ParsedQuery,
  filter: MemoryFilter,
  pool: number,
  common: CommonTerms = new Map(),
): MemoryCandidate[] {
  const terms = query.terms
    .map((t) => ({ expr: termQuery(t), rank: rankQuery(t) }))
    .filter((x) => x.expr && x.rank);
  if (terms.length === 0) return [];
  const excluded = query.excluded.map(termQuery).filter(Boolean);
  const single = terms.length === 1;

  // Round trip 1 (skipped when every term is known to be common): how common each term is
  // (counts stop at RARE_DF + 1), and the store size.
  const now = Date.now();
  const known = (rank: string) => (common.get(rank) ?? 0) > now;
  const probe = new Params();
  const counts = terms.flatMap((x, i) =>
    known(x.rank)
      ? []
      : [
          `(SELECT count(*) FROM (SELECT FROM memories WHERE fts @@ ${probe.add(x.rank)}::tsquery
            LIMIT ${RARE_DF + 1}) c) AS d${i}`,
        ],
  );
  const stats: Record<string, number> =
    counts.length > 0
      ? pg.one<Record<string, number>>(
          `SELECT ${counts.join(', ')}, (SELECT COALESCE(max(mid), 0) FROM memories) AS n`,
          probe.values,
        )!
      : { n: 0 };
  const df = (i: number) => stats[`d${i}`] ?? RARE_DF + 1;
  if (common.size > COMMON_MAX) common.clear();
  terms.forEach((x, i) => {
    if (!known(x.rank) && df(i) > RARE_DF) common.set(x.rank, now + COMMON_TTL_MS);
  });
  const rare: { rank: string; idf: number }[] = [];
  let budget = RANK_BUDGET;
  for (const t of terms.map((x, i) => ({ ...x, df: df(i) })).sort((a, b) => a.df - b.df)) {
    if (t.df > RARE_DF || t.df > budget) break;
    // FTS5's idf; the highest row id stands in for its row count (ids are never reused).
    rare.push({ rank: t.rank, idf: Math.max(Math.log((stats.n! - t.df + 0.5) / (t.df + 0.5)), 1e-6) });
    budget -= t.df;
  }

  // Round trip 2: the ranked matches of the distinctive terms, and the newest matches when needed.
  const p = new Params();
  const all = p.add(without(allOf(terms.map((x) => x.expr)), excluded));
  const limit = p.add(pool);
  const where = filterSql(filter, p);
  const tags = filterTags(filter);
  const tagged = (q: string) => (tags ? `(${q}) & ${tags}` : q);
  const newest = (guard: string) =>
    `SELECT 'newest' AS tier, m.id, m.importance, m.updated_at, NULL::float8 AS s, m.fts @@ ${all}::tsquery AS strict
     FROM memories m
     WHERE ${guard} m.fts @@ ${p.add(tagged(without(anyOf(terms.map((x) => x.expr)), excluded)))}::tsquery
       AND ${where}
     ORDER BY m.mid DESC LIMIT ${limit}`;
  let sql: string;
  if (rare.length === 0) sql = newest('');
  else {
    const score = rare
      .map(
        (r) =>
          `${p.add(r.idf)}::float8 * ts_rank_cd('${RANK_WEIGHTS}'::float4[], m.fts, ${p.add(r.rank)}::tsquery, 1)`,
      )
      .join(' + ');
    const notExcluded = excluded.length ? `AND NOT (m.fts @@ ${p.add(anyOf(excluded))}::tsquery)` : '';
    sql = `WITH ranked AS MATERIALIZED (
             SELECT 'ranked' AS tier, m.id, m.importance, m.updated_at, (${score})::float8 AS s,
                    m.fts @@ ${all}::tsquery AS strict
             FROM memories m
             WHERE m.fts @@ ${p.add(anyOf(rare.map((r) => r.rank)))}::tsquery ${notExcluded} AND ${where}
           )
           SELECT * FROM ranked
           UNION ALL
           (${newest(`(SELECT count(*) FROM ranked) < ${limit} AND`)})`;
  }
  const rows = pg.query<CandidateRow>(sql, p.values);

  const out = new Map<string, MemoryCandidate>();
  const add = (r: CandidateRow, bm25: number, strict: boolean) => {
    if (!out.has(r.id))
      out.set(r.id, { id: r.id, bm25, strict, importance: r.importance, updated_at: r.updated_at });
  };
  if (rare.length > 0) {
    let floor = Number.POSITIVE_INFINITY;
    for (const r of rows.filter((x) => x.tier === 'ranked')) {
      const bm25 = r.s ?? 0;
      floor = Math.min(floor, bm25);
      add(r, bm25, single || r.strict);
    }
    if (out.size >= pool) return [...out.values()];
    // Too few in this filter: fill up from the common terms, below every ranked match.
    const below = Number.isFinite(floor) ? floor / 2 : 0.5;
    for (const r of rows) if (r.tier === 'newest') add(r, below, false);
    return [...out.values()];
  }
  for (const r of rows) add(r, 1, single || r.strict);
  return [...out.values()];
}
