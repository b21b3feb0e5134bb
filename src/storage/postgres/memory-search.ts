/**
 * Bounded full-text candidates for memories on PostgreSQL: the SQLite store's strategy
 * (storage/sqlite/memory-search.ts) with the same tiers, bounds and scores, in two round trips
 * (three only when an exact check drops ranked rows below the pool), each statement with its
 * tsqueries as values so the planner can weigh them (a GIN lookup for a rare term, a short scan
 * for a common one).
 *
 * - One statement probes every term's document frequency with a count that stops at RARE_DF + 1,
 *   and reads FTS5's table-wide totals (migration 002's memory_fts_totals).
 * - Distinctive terms (each in at most RARE_DF memories, together at most RANK_BUDGET, taken
 *   rarest first) are ranked: every match of their single rank phrases that passes the filter is
 *   fetched (at most RANK_BUDGET rows) and scored by FTS5's bm25 over SQLite's columns and weights
 *   (fts5-rank.ts bm25Of), with the probe's counts as its document frequencies: the score SQLite's
 *   `bm25(memories_fts, 2.0, 1.0, 1.5, 0.5, 0.0)` gives. A row whose tsvector is exact (no
 *   tsvector limit hit, memory-text.ts memoryIndex; nearly all) comes with each phrase's weighted
 *   count read from the vector and its stored FTS5 size, and is matched against the excluded terms
 *   and, for strictness, every term by the statement: no text is fetched or tokenized. Any other
 *   row comes with its text, tokenized and matched exactly in JS as FTS5 would.
 * - When they give fewer than `pool` matches (or there are none), the newest `pool` matches of
 *   any term in the filter are added: below every ranked match (half the lowest bm25), or, with
 *   only common terms, at a flat relevance and strict when they hold every term.
 *
 * Matching is the GIN index's (the tsvector is FTS5's tokens, memory-text.ts) and rechecked in JS
 * on ranked rows; the two differ only past PostgreSQL's tsvector limits (a position beyond 16,383,
 * over 256 positions of one lexeme, a word over 200 characters), where a phrase in a very long
 * memory may be found by one backend and not the other.
 */
import { identParts, joinedForm } from '../../core/idents.js';
import type { ParsedQuery, QueryTerm } from '../../core/query.js';
import type { MemoryCandidate, MemoryFilter } from '../../ports/memory-store.js';
import { bm25, bm25Of, compilePhrases, compileQuery, Fts5Row } from './fts5-rank.js';
import { filterSql, Params } from './memory-sql.js';
import {
  allOf,
  anyOf,
  BM25_WEIGHTS,
  filterTags,
  fts5Columns,
  fts5TagTokens,
  phraseCountsSql,
  phraseFreqs,
  rankQuery,
  termQuery,
  without,
} from './memory-text.js';
import type { PgSync } from './sync-client.js';

/** A term in at most this many memories is distinctive enough to rank (as on SQLite). */
export const RARE_DF = 300;
/** At most this many matches are scored in one search. */
export const RANK_BUDGET = 600;
/**
 * A query term longer than this may hold a word whose lexeme is cut (over 200 characters, or an
 * identifier's joined form that long): its rows are matched on their text, never their vectors.
 */
const MAX_QUERY_TEXT = 100;

interface LightRow {
  id: string;
  importance: number;
  updated_at: string;
  strict: boolean;
}

interface CandidateRow extends LightRow {
  tier: 'ranked' | 'newest';
  /** A ranked row whose vector is exact (memoryIndex): `cd`, `hits` and `ntok` score it, no text. */
  exact: boolean | null;
  cd: number[] | null;
  hits: string | null;
  ntok: number | null;
  title: string | null;
  content: string | null;
  labels: string | null;
  project: string | null;
}

/**
 * Per-store memo of terms found common (in more than RARE_DF memories), until a time: a term's
 * count only falls when memories are purged, and probing a common term costs a few milliseconds
 * of index work, so a remembered one is not probed again for a while.
 */
export type CommonTerms = Map<string, number>;
const COMMON_TTL_MS = 5 * 60_000;
const COMMON_MAX = 10_000;

/** The single FTS5 phrase SQLite ranks a term by: an identifier by its joined form (`src_db_ts`). */
function rankPhrase(t: QueryTerm): { text: string; prefix: boolean } {
  if (t.kind !== 'ident') return { text: t.text, prefix: t.kind === 'prefix' };
  const joined = joinedForm(t.text);
  return { text: joined || identParts(t.text).join(' '), prefix: false };
}

export function searchCandidates(
  pg: PgSync,
  query: ParsedQuery,
  filter: MemoryFilter,
  pool: number,
  common: CommonTerms = new Map(),
): MemoryCandidate[] {
  const compiled = compileQuery(query);
  const terms = query.terms
    .map((t, i) => ({ term: t, node: compiled.terms[i] ?? null, expr: termQuery(t), rank: rankQuery(t) }))
    .filter((x) => x.expr && x.rank);
  if (terms.length === 0) return [];
  const excluded = query.excluded.map(termQuery).filter(Boolean);
  const single = terms.length === 1;

  // Round trip 1 (skipped when every term is known to be common): how common each term is
  // (counts stop at RARE_DF + 1), and FTS5's totals.
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
          `SELECT ${counts.join(', ')}, t.rows, t.tokens FROM memory_fts_totals t`,
          probe.values,
        )!
      : {};
  const df = (i: number) => stats[`d${i}`] ?? RARE_DF + 1;
  if (common.size > COMMON_MAX) common.clear();
  terms.forEach((x, i) => {
    if (!known(x.rank) && df(i) > RARE_DF) common.set(x.rank, now + COMMON_TTL_MS);
  });
  const rare: { rank: string; phrase: { text: string; prefix: boolean }; df: number }[] = [];
  let budget = RANK_BUDGET;
  for (const t of terms.map((x, i) => ({ ...x, df: df(i) })).sort((a, b) => a.df - b.df)) {
    if (t.df > RARE_DF || t.df > budget) break;
    rare.push({ rank: t.rank, phrase: rankPhrase(t.term), df: t.df });
    budget -= t.df;
  }

  // Round trip 2: the ranked matches of the distinctive terms with their text, and the newest
  // matches when there may be too few of them.
  const tags = filterTags(filter);
  const tagged = (q: string) => (tags ? `(${q}) & ${tags}` : q);
  /** The newest `pool` matches of any term in the filter (`guard`: a condition given `limit`). */
  const newestSql = (p: Params, guard: (limit: string) => string = () => '') => {
    const limit = p.add(pool);
    return `SELECT 'newest' AS tier, m.id, m.importance, m.updated_at,
              m.fts @@ ${p.add(without(allOf(terms.map((x) => x.expr)), excluded))}::tsquery AS strict,
              NULL AS title, NULL AS content, NULL AS labels, NULL AS project,
              NULL AS exact, NULL AS cd, NULL AS hits, NULL AS ntok
       FROM memories m
       WHERE ${guard(limit)} m.fts @@ ${p.add(tagged(without(anyOf(terms.map((x) => x.expr)), excluded)))}::tsquery
         AND ${filterSql(filter, p)}
       ORDER BY m.mid DESC LIMIT ${limit}`;
  };
  const newest = () => {
    const p = new Params();
    return pg.query<CandidateRow>(newestSql(p), p.values);
  };
  const out = new Map<string, MemoryCandidate>();
  const add = (r: LightRow, bm25: number, strict: boolean) => {
    if (!out.has(r.id))
      out.set(r.id, { id: r.id, bm25, strict, importance: r.importance, updated_at: r.updated_at });
  };

  if (rare.length === 0) {
    for (const r of newest()) add(r, 1, single || r.strict);
    return [...out.values()];
  }

  // FTS5's bm25 over the rare phrases alone (SQLite's ranked MATCH holds only those).
  const ranking = compilePhrases(rare.map((r) => r.phrase));
  const p = new Params();
  const notExcluded = excluded.length ? `AND NOT (m.fts @@ ${p.add(anyOf(excluded))}::tsquery)` : '';
  // A row with an exact vector is scored from it: its phrases' weighted counts (memory-text.ts
  // phraseCountsSql), its stored size, and strictness by the vector (exclusions are the statement's). Other rows
  // (a tsvector limit hit), and every row for a query with a word whose lexeme is cut, come with
  // their text and are tokenized here.
  const cut = [...query.terms, ...query.excluded].some((t) => t.text.length > MAX_QUERY_TEXT);
  const exact = cut ? 'false' : 'm.fts_exact';
  const phraseCols = phraseCountsSql(ranking.phrases, `CASE WHEN ${exact} THEN m.fts END`, (v) => p.add(v));
  const strict = single ? 'true' : `m.fts @@ ${p.add(allOf(terms.map((x) => x.expr)))}::tsquery`;
  const text = (col: string) => `CASE WHEN ${exact} THEN NULL ELSE m.${col} END AS ${col}`;
  const rows = pg.query<CandidateRow>(
    `WITH ranked AS MATERIALIZED (
       SELECT 'ranked' AS tier, m.id, m.importance, m.updated_at, ${strict} AS strict,
              ${['title', 'content', 'labels', 'project'].map(text).join(', ')},
              ${exact} AS exact, ${phraseCols}, m.fts_tokens AS ntok
       FROM memories m
       WHERE m.fts @@ ${p.add(anyOf(rare.map((r) => r.rank)))}::tsquery ${notExcluded}
         AND ${filterSql(filter, p)}
     )
     SELECT * FROM ranked
     UNION ALL
     (${newestSql(p, (limit) => `(SELECT count(*) FROM ranked) < ${limit} AND`)})`,
    p.values,
  );

  // Rows without an exact vector: exclusions and strictness by the whole query in JS, each row
  // tokenized once.
  const stats25 = { rows: stats.rows!, tokens: stats.tokens!, phraseRows: rare.map((r) => r.df) };
  let fetched = 0;
  let floor = Number.POSITIVE_INFINITY;
  for (const r of rows) {
    if (r.tier !== 'ranked') continue;
    fetched++;
    if (r.exact) {
      const freq = phraseFreqs(ranking.phrases, r.cd!, r.hits);
      if (!freq) continue;
      const score = bm25Of(freq, r.ntok!, stats25);
      floor = Math.min(floor, score);
      add(r, score, r.strict);
      continue;
    }
    const labels = JSON.parse(r.labels!) as string[];
    const row = new Fts5Row(
      ranking,
      fts5Columns({ title: r.title!, content: r.content!, labels }),
      fts5TagTokens(labels.length, r.project),
    );
    if (!row.matchesQuery()) continue;
    const whole = new Fts5Row(compiled, row);
    if (whole.matches(compiled.excluded)) continue;
    const score = bm25(row, stats25, BM25_WEIGHTS);
    floor = Math.min(floor, score);
    add(r, score, single || terms.every((x) => whole.matches(x.node)));
  }
  if (out.size >= pool) return [...out.values()];
  // Too few in this filter: fill up from the common terms, below every ranked match. (Round trip
  // 3 only when the exact check dropped rows the statement counted as enough.)
  const below = Number.isFinite(floor) ? floor / 2 : 0.5;
  for (const r of fetched < pool ? rows.filter((r) => r.tier === 'newest') : newest()) add(r, below, false);
  return [...out.values()];
}
