/**
 * Bounded candidate retrieval over the steps' tsvector (GIN) and identifier trigrams: term
 * statistics and the steps worth ranking, never a score — search/ ranks once, for every backend.
 * The same plan as storage/sqlite/retrieval.ts, in PostgreSQL's own terms:
 *   - each term's document frequency is counted up to DF_CAP (exact, cached, for a common word;
 *     the planner's statistics stand in for a word they put far above the cap);
 *   - the rare terms' matches, at most RANK_BUDGET of them (the most recent), are put in an impact
 *     order — Σ idf of the rare terms a step holds × its kind's weight — to keep the best `limit`.
 *     Which terms a step holds comes from one index scan per term, never from unpacking the
 *     step's tsvector (a detoast per step was most of a search's time);
 *   - AND probes take the most recent steps holding every word (all but the commonest, the two
 *     rarest); an identifier found nowhere as a word is looked for as a substring of the steps'
 *     identifier tokens through their trigram index when pg_trgm is installed (`ERR_SOCK`).
 * Round trips: one for every term's count and the step total (a prepared statement), one for all
 * the candidate lists together with their texts, one more only when nothing matched.
 */
import { subsetProbes } from '../../core/probe-plan.js';
import type { ParsedQuery, QueryTerm } from '../../core/query.js';
import type { AgentId, Role, StepKind } from '../../core/types.js';
import {
  CANDIDATE_TEXT_CHARS,
  type Candidate,
  type CandidateSet,
  type SearchFilters,
} from '../../ports/transcript-store.js';
import type { PgStore } from './open.js';
import {
  containsPattern,
  exactIdentQuery,
  excludedQuery,
  termQuery,
  withoutExcluded,
  wordLexeme,
} from './transcript-fts.js';

/** Matches ranked at most. */
export const RANK_BUDGET = 2000;
/** Summed document frequency of the rare terms sent to the index. */
const RARE_BUDGET = RANK_BUDGET;
/** Best steps taken from each AND probe (every word; each pair of informative words), as SQLite. */
const PROBE_LIMIT = 40;
const PAIR_LIMIT = 60;
/**
 * Matches of a pair put in impact order at most (the most recent when there are more). At 400 a
 * pair of common words (423 matches in the 32k-step eval store) lost its oldest answers; 800
 * costs the same p50 at 100k steps (the bitmap plan reads every match either way).
 */
const PAIR_BUDGET = 800;
/** Words paired: the rarest few, each in under a fifth of the steps. */
const PAIR_TERMS = 4;
const PAIR_MAX_SHARE = 0.2;
/** Document frequencies are counted up to this; a term at the cap is "common". */
const DF_CAP = 3000;
/**
 * A word the planner statistics (ANALYZE's most common lexemes, a 30,000-row sample) put at this
 * many steps or more is not counted: its estimate is its frequency. Counting reads every match's
 * heap row (~3 µs each); a word below it, or on a table too small to reach it, is counted exactly.
 */
const MCE_MIN_DF = 500;

/** How much a match in each kind of step is worth when picking candidates (as SQLite's columns). */
const KIND_WEIGHT_SQL = `CASE s.kind WHEN 'prompt' THEN 1.3 WHEN 'reasoning' THEN 0.5
  WHEN 'tool_call' THEN 0.6 WHEN 'tool_result' THEN 0.2 ELSE 1.0 END`;
/** Recent steps sampled for the average text length, refreshed as the index grows by a quarter. */
const LENGTH_SAMPLE = 2000;

type Row = Record<string, unknown>;
type Probe = { t: QueryTerm; expr: string; df: number; like?: string };
/** A term's counts: exact identifier form, full expression (-1: known common), substring; term_df's row. */
type Counted = { e: number; f: number; est: number | null; g: number; c: number | null; ct: number | null };

/**
 * A condition that is always true and keeps the statement's plan serial: current_schema() is
 * parallel-unsafe. The union of index scans otherwise gets a parallel plan whose workers take
 * longer to start (milliseconds each, more on a busy server) than the whole search takes.
 */
const SERIAL = 'current_schema() IS NOT NULL';

/** Appends a parameter and returns its placeholder. */
type Param = (value: unknown) => string;

function paramList(): { params: unknown[]; p: Param } {
  const params: unknown[] = [];
  return {
    params,
    p: (v) => {
      params.push(v);
      return `$${params.length}`;
    },
  };
}

/** SQL conditions on `s` (steps) and `t` (threads) for the filters, as storage/sqlite/retrieval.ts. */
export function filterWhere(f: SearchFilters, p: Param): string[] {
  const where: string[] = [];
  if (f.agents?.length) where.push(`t.agent = ANY(${p(f.agents)}::text[])`);
  if (f.project) {
    const dir = f.project.replace(/\/+$/, '') || '/';
    // SQLite's LIKE ignores ASCII case; ILIKE is the nearest match.
    where.push(
      `(t.project = ${p(dir)} OR t.project ILIKE ${p(`${dir.replace(/[\\%_]/g, '\\$&')}${dir === '/' ? '' : '/'}%`)})`,
    );
  }
  if (f.thread) where.push(`t.id = ${p(f.thread)}`);
  if (f.spaces) where.push(`t.space = ANY(${p([...f.spaces])}::text[])`);
  if (f.roles?.length) where.push(`s.role = ANY(${p(f.roles)}::text[])`);
  if (f.since) where.push(`s.ts >= ${p(f.since)}`);
  if (f.until) where.push(`s.ts <= ${p(f.until)}`);
  return where;
}

const CANDIDATE_COLS = `s.id AS rowid, s.step, s.role, s.kind, s.ts, s.line,
  left(s.text, ${CANDIDATE_TEXT_CHARS}) AS text, length(s.text) AS chars, s.ctx,
  t.id AS thread_id, t.agent, t.project, t.title, t.source, t.started_at, t.updated_at`;

const toCandidate = (r: Row): Candidate => ({
  rowid: r.rowid as number,
  threadId: r.thread_id as string,
  agent: r.agent as AgentId,
  project: (r.project as string | null) ?? null,
  title: (r.title as string | null) ?? null,
  threadStartedAt: (r.started_at as string | null) ?? null,
  threadUpdatedAt: (r.updated_at as string | null) ?? null,
  source: r.source as string,
  step: r.step as number,
  role: r.role as Role,
  kind: r.kind as StepKind,
  timestamp: (r.ts as string | null) ?? null,
  line: r.line as number,
  text: r.text as string,
  chars: r.chars as number,
  context: r.ctx as string,
});

/** A rare term's worth when picking candidates: how rare it is (the impact order's unit). */
function impact(df: number, total: number): number {
  const n = Math.max(total, df + 1);
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

export interface PgRetriever {
  candidates(query: ParsedQuery, filters: SearchFilters, limit: number): CandidateSet;
  candidatesAmong(rowids: readonly number[], filters: SearchFilters, limit: number): Candidate[];
}

export function createPgRetriever(db: PgStore): PgRetriever {
  const { pg } = db;
  const stats = createTermStats(db);
  let avg: { chars: number; size: number; total: number } | undefined;
  /** Average text length and tsvector size of the recent steps (cached until the index grows). */
  const averages = (total: number): { chars: number; size: number } => {
    if (!avg || total > avg.total * 1.25 + 100) {
      const r = pg.one<{ n: number | null; z: number | null }>(
        `SELECT avg(length(text))::float8 AS n, avg(pg_column_size(fts))::float8 AS z
         FROM (SELECT text, fts FROM steps ORDER BY id DESC LIMIT ${LENGTH_SAMPLE}) x`,
      );
      avg = { chars: r?.n || 1, size: r?.z || 1, total };
    }
    return avg;
  };

  /**
   * Every term's probe: exact identifier form when it is found, else its full expression. A
   * word counted common before (`term_df`) or that the planner statistics put well above DF_CAP
   * is not counted again: a bounded count of a common word reads DF_CAP heap rows (milliseconds).
   */
  function probes(query: ParsedQuery): { probes: Probe[]; total: number } {
    const exact = query.terms.map((t) => (t.kind === 'ident' ? exactIdentQuery(t) || null : null));
    const full = query.terms.map((t) => termQuery(t) || null);
    const like = query.terms.map((t) =>
      t.kind === 'ident' && db.capabilities.trigram ? containsPattern(t.text) : null,
    );
    const lex = query.terms.map(wordLexeme);
    const count = (e: string) =>
      `(SELECT count(*)::int FROM (SELECT 1 FROM steps WHERE fts @@ ${e} LIMIT ${DF_CAP}) x)`;
    // One SQL text for every query (the terms are arrays): prepared once per connection.
    const [r] = pg.query<{ total: number; counts: Counted[] }>(
      `WITH mce AS MATERIALIZED (
         SELECT st.most_common_elems::text::text[] AS elems, st.most_common_elem_freqs AS freqs
         FROM pg_stats st WHERE st.schemaname = current_schema() AND st.tablename = 'steps' AND st.attname = 'fts')
         , tot AS MATERIALIZED (SELECT coalesce(max(id), 0) AS n FROM steps)
       SELECT (SELECT n FROM tot) AS total,
        coalesce((SELECT json_agg(json_build_object('e', z.e, 'f', z.f, 'est', z.est, 'c', z.c, 'ct', z.ct, 'g',
          CASE WHEN z.e = 0 AND z.f = 0 AND z.pat IS NOT NULL
            THEN (SELECT count(*)::int FROM (SELECT 1 FROM steps
              WHERE ident_tokens <> '' AND ident_tokens ILIKE z.pat LIMIT ${DF_CAP}) y)
            ELSE 0 END) ORDER BY z.i)
        FROM (SELECT w.*, CASE WHEN w.fu IS NULL THEN 0 WHEN w.c >= ${DF_CAP} OR w.est IS NOT NULL THEN -1
                  ELSE ${count('w.fu::tsquery')} END AS f
              FROM (SELECT u.i, u.pat, u.fu, td.df AS c, td.total AS ct,
                  CASE WHEN u.ex IS NULL THEN 0 ELSE ${count('u.ex::tsquery')} END AS e,
                  (SELECT round(m.freqs[array_position(m.elems, u.lex)] * tot.n)::int FROM mce m, tot
                    WHERE m.freqs[array_position(m.elems, u.lex)] * tot.n >= ${MCE_MIN_DF}) AS est
                FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS u(ex, fu, pat, lex, i)
                LEFT JOIN term_df td ON u.lex IS NOT NULL AND td.term = u.fu
                OFFSET 0) w
              OFFSET 0) z), '[]') AS counts`,
      [exact, full, like, lex],
      'tapedeck_transcript_term_counts',
    );
    const total = r?.total ?? 0;
    const counts = r?.counts ?? [];
    const list = query.terms.map((t, i): Probe => {
      const c = counts[i] ?? { e: 0, f: 0, est: null, g: 0, c: null, ct: null };
      if (exact[i] && c.e > 0) return { t, expr: exact[i]!, df: c.e };
      if (c.f !== 0 || !like[i] || c.g === 0) {
        // Not counted: a common word's exact frequency is cached; a frequent one's is estimated.
        const est = c.f < 0 && c.est !== null && c.est < DF_CAP && !(c.c !== null && c.c >= DF_CAP);
        const common = !est && (c.f < 0 || c.f >= DF_CAP);
        const stored = c.c === null ? undefined : { df: c.c, total: c.ct ?? 0 };
        const df = est ? c.est! : common && lex[i] ? Math.max(c.f, stats.df(full[i]!, total, stored)) : c.f;
        return { t, expr: full[i] ?? '', df };
      }
      return { t, expr: '', df: c.g, like: like[i]! };
    });
    return { probes: list, total };
  }

  /** The terms to OR: rare ones, rarest first, while their matches fit the budget. */
  function rareTerms(byDf: Probe[]): Probe[] {
    const picked: Probe[] = [];
    let sum = 0;
    for (const pr of byDf) {
      if (pr.df >= DF_CAP || (picked.length > 0 && sum + pr.df > RARE_BUDGET)) break;
      picked.push(pr);
      sum += pr.df;
    }
    return picked;
  }

  return {
    candidatesAmong(rowids, filters, limit) {
      if (rowids.length === 0 || limit <= 0) return [];
      const { params, p } = paramList();
      const ids = p(rowids.map(String));
      const where = [...filterWhere(filters, p), SERIAL].map((w) => ` AND ${w}`).join('');
      return pg
        .query<Row>(
          `SELECT ${CANDIDATE_COLS} FROM unnest(${ids}::bigint[]) WITH ORDINALITY AS n(id, ord)
           JOIN steps s ON s.id = n.id JOIN threads t ON t.tid = s.tid WHERE true${where}
           ORDER BY n.ord LIMIT ${p(limit)}`,
          params,
        )
        .map(toCandidate);
    },
    candidates(query, filters, limit) {
      const { probes: all, total } = probes(query);
      const dfs = all.map((x) => x.df);
      // Only the counts were asked for (search/expansion.ts): no probe is sent.
      if (limit <= 0) return { stats: { total, avgChars: averages(total).chars, df: dfs }, candidates: [] };
      const found = all.filter((x) => x.df > 0);
      const words = found.filter((x) => x.expr).sort((a, b) => a.df - b.df);
      const substrings = found.filter((x) => x.like);
      const excluded = excludedQuery(query);
      // Each statement numbers its own parameters (PostgreSQL refuses one it cannot type).
      let { params, p } = paramList();
      let where = filterWhere(filters, p);
      const restart = () => {
        ({ params, p } = paramList());
        where = filterWhere(filters, p);
      };
      // The threads only when a filter is on them.
      const from =
        filters.agents?.length || filters.project || filters.thread || filters.spaces
          ? `FROM steps s JOIN threads t ON t.tid = s.tid`
          : 'FROM steps s';
      const cond = (match: string) => [match, ...where].join(' AND ');
      const branches: string[] = [];
      const tsq = (expr: string) => `${p(withoutExcluded(expr, excluded))}::tsquery`;
      const recent = (ord: number, match: string, n: number) =>
        `(SELECT ${ord} AS ord, s.id, 0::float8 AS rank ${from} WHERE ${cond(match)} ORDER BY s.id DESC LIMIT ${n})`;

      // 1. Rare words, in impact order: Σ idf of the rare words a step holds × its kind's weight.
      //    Each word's matches come from its own index scan, so a step's tsvector is never
      //    unpacked (detoasting it per step was most of the search).
      const avgSize = averages(total).size.toFixed(1);
      const lengthNorm = (size: string) => `(2.2 / (1 + 1.2 * (0.25 + 0.75 * ${size} / ${avgSize})))`;
      const rare = words.length > 0 ? rareTerms(words) : [];
      if (rare.length > 0) {
        const scans = rare.map(
          (x) => `SELECT s.id, (${KIND_WEIGHT_SQL}) * ${impact(x.df, total).toFixed(6)} AS w,
              pg_column_size(s.fts) AS size ${from} WHERE ${cond(`s.fts @@ ${tsq(x.expr)}`)}`,
        );
        // Every match is ordered when they fit the budget; else the RANK_BUDGET most recent.
        const recentFirst = rare.reduce((n, x) => n + x.df, 0) > RANK_BUDGET;
        const ordered =
          scans.length === 1 && !recentFirst
            ? `SELECT g.id, g.w AS rank, g.size FROM (${scans[0]}) g`
            : `SELECT g.id, sum(g.w) AS rank, min(g.size) AS size FROM (${scans.join(' UNION ALL ')}) g GROUP BY g.id
               ${recentFirst ? `ORDER BY g.id DESC LIMIT ${RANK_BUDGET}` : ''}`;
        // BM25's length normalisation for one occurrence, by the tsvector's size (its header's).
        branches.push(`(SELECT 0 AS ord, m.id, m.rank * ${lengthNorm('m.size')} AS rank FROM (${ordered}) m
          ORDER BY 3 DESC, m.id DESC LIMIT ${p(Math.max(0, Math.floor(limit)))})`);
      }
      // 2. Steps with every word, and with each pair of the informative words: two
      //    mid-frequency words together are rare even when neither is. Of the most recent
      //    PAIR_BUDGET matches, the best by kind (a pair's steps all hold the same words).
      //    Two plans find them: every match through the GIN index, then sorted (cost ∝ the
      //    matches M), or the primary key walked backwards testing each step's tsvector until
      //    PAIR_BUDGET match (∝ PAIR_BUDGET · total / M). The planner picks the walk for a LIMIT
      //    even when the words rarely meet (12,000 tsvectors, 24 ms, for one pair at 100k
      //    steps), so when the matches, estimated as if the words were independent, are under
      //    the break-even √(PAIR_BUDGET · total), `s.id + 0` hides the key's order from it.
      const both = (ord: number, ps: Probe[], n: number) => {
        const est = Math.min(
          ...ps.map((x) => x.df),
          ps.reduce((m, x) => (m * x.df) / Math.max(1, total), Math.max(1, total)),
        );
        const key = est <= Math.sqrt(PAIR_BUDGET * total) ? 's.id + 0' : 's.id';
        branches.push(`(SELECT ${ord} AS ord, m.id, m.rank FROM (SELECT s.id, (${KIND_WEIGHT_SQL})::float8 AS rank,
              pg_column_size(s.fts) AS size
            ${from} WHERE ${cond(`s.fts @@ ${tsq(ps.map((x) => x.expr).join(' & '))}`)}
            ORDER BY ${key} DESC LIMIT ${PAIR_BUDGET}) m ORDER BY m.rank * ${lengthNorm('m.size')} DESC, m.id DESC LIMIT ${n})`);
      };
      // When the rare words' matches all fit the limit (exact counts: an estimate is never under
      // MCE_MIN_DF), step 1 takes every one of them: an AND probe holding one of those words can
      // only find steps already taken (each step keeps its first list), so it is not sent.
      const rareSum = rare.reduce((n, x) => n + x.df, 0);
      const taken = new Set(rareSum <= Math.min(limit, MCE_MIN_DF - 1) ? rare : []);
      const news = (ps: Probe[]) => !ps.some((x) => taken.has(x));
      if (words.length > 1 && news(words)) both(1, words, PROBE_LIMIT);
      const paired = words.filter((x) => x.df < total * PAIR_MAX_SHARE).slice(0, PAIR_TERMS);
      const isRare = new Set(rare);
      for (let i = 0; i < paired.length; i++)
        for (let j = i + 1; j < paired.length; j++) {
          if (isRare.has(paired[i]!) && isRare.has(paired[j]!)) continue; // ordered in step 1
          if (words.length === 2) continue; // the every-word probe
          if (news([paired[i]!, paired[j]!])) both(2, [paired[i]!, paired[j]!], PAIR_LIMIT);
        }
      // Every informative word but the rarest few (core/probe-plan.ts).
      for (const ps of subsetProbes(words.filter((x) => x.df < total * PAIR_MAX_SHARE)))
        if (news(ps)) both(3, ps, PAIR_LIMIT);
      // An identifier found only as a substring: the most recent steps containing it.
      substrings.forEach((x, i) => {
        const not = excluded ? ` AND NOT s.fts @@ ${p(excluded)}::tsquery` : '';
        branches.push(
          recent(4 + i, `s.ident_tokens <> '' AND s.ident_tokens ILIKE ${p(x.like)}${not}`, PROBE_LIMIT),
        );
      });

      // One row per step (its first list), with the text search/ ranks: the texts come with the
      // candidates instead of in a round trip of their own.
      const run = (list: string[]): Candidate[] => {
        if (list.length === 0) return [];
        const rows = pg.query<Row>(
          `SELECT ${CANDIDATE_COLS}
           FROM (SELECT DISTINCT ON (u.id) u.* FROM (${list.join(' UNION ALL ')}) u ORDER BY u.id, u.ord) c
             JOIN steps s ON s.id = c.id JOIN threads t ON t.tid = s.tid
           WHERE ${SERIAL} ORDER BY c.ord, c.rank DESC, s.id DESC`,
          params,
        );
        return rows.map(toCandidate);
      };
      let candidates = run(branches);
      // 3. Nothing yet: the most recent steps with any of the words.
      if (candidates.length === 0 && words.length > 0) {
        restart();
        const any = `s.fts @@ ${tsq(words.map((x) => x.expr).join(' | '))}`;
        candidates = run([recent(5, any, Math.max(0, Math.floor(limit)))]);
      }
      return { stats: { total, avgChars: averages(total).chars, df: dfs }, candidates };
    },
  };
}

/**
 * Exact document frequencies of common words, cached in memory and in `term_df` and refreshed
 * once the index has grown by a quarter (a count over a GIN posting list of a very common word
 * costs tens of milliseconds on a large index; words repeat across queries).
 */
function createTermStats(db: PgStore): {
  df(expr: string, total: number, stored?: { df: number; total: number }): number;
} {
  const memory = new Map<string, { df: number; total: number }>();
  const fresh = (e: { total: number } | undefined, total: number) => !!e && total <= e.total * 1.25 + 100;
  return {
    df(expr, total, stored) {
      const cached = memory.get(expr);
      if (fresh(cached, total)) return cached!.df;
      if (fresh(stored, total)) {
        memory.set(expr, stored!);
        return stored!.df;
      }
      const df =
        db.pg.one<{ n: number }>('SELECT count(*)::int AS n FROM steps WHERE fts @@ $1::tsquery', [expr])
          ?.n ?? 0;
      memory.set(expr, { df, total });
      // Inside a caller's transaction a failed write would abort it: keep the figure in memory only.
      if (!db.pg.inTransaction) {
        try {
          db.pg.run(
            `INSERT INTO term_df (term, df, total) VALUES ($1, $2, $3)
             ON CONFLICT (term) DO UPDATE SET df = excluded.df, total = excluded.total`,
            [expr, df, total],
          );
        } catch {
          // a read-only role just doesn't keep the figure
        }
      }
      return df;
    },
  };
}
