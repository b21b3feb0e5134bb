/**
 * Bounded candidate retrieval over the FTS5 index: term statistics and the steps worth ranking,
 * never a score (search/ ranks once, for every backend). Two costs grow with the corpus: ordering
 * a match (~2 µs each) and reading the whole document list of a common word. So:
 *   - each term's document frequency is counted only up to DF_CAP (exact, cached, beyond it);
 *   - the index is asked for the rare terms only (OR-ed, rarest first, up to a budget), and at
 *     most RANK_BUDGET of their matches (the most recent when there are more) are put in FTS5's
 *     impact order (its bm25 over the kind columns and the neighbour column) to keep the best;
 *   - steps holding every word (all but the commonest, the two rarest) come from AND probes,
 *     most recent first, the best of them by bm25 — or, for words with many matches, by the
 *     steps' own worth (step-impact.ts), since bm25 first counts every match of each word;
 *     when nothing matched, the most recent steps holding any word. An AND probe holding few
 *     steps takes them all unranked. (A budget on the ranked AND probes of one read cut the p99
 *     to 0.4–0.65× but cost three seed-7 paraphrase questions at 42k steps, and more as a store
 *     grows — the quality of a large store is not traded for its slowest questions.)
 * Common words are credited by search/ from the candidates' own text.
 */
import type BetterSqlite3 from 'better-sqlite3';
import { porterStem } from '../../core/porter.js';
import { subsetProbes } from '../../core/probe-plan.js';
import type { ParsedQuery, QueryTerm } from '../../core/query.js';
import type { AgentId, Role, StepKind } from '../../core/types.js';
import {
  CANDIDATE_TEXT_CHARS,
  type Candidate,
  type CandidateSet,
  type SearchFilters,
} from '../../ports/transcript-store.js';
import { exactIdentExpr, excludedExpr, termExpr } from './fts-query.js';
import type { Db } from './open.js';
import { kindAndSize, stepImpact } from './step-impact.js';
import { createTermStats } from './term-stats.js';

// better-sqlite3 binds JS numbers as REAL, and FTS5 silently ignores a rowid constraint with a
// REAL value (every match comes back): rowid parameters are always CAST to INTEGER.

/** Matches ranked at most. */
export const RANK_BUDGET = 2000;
/** Summed document frequency of the rare terms sent to the index. */
const RARE_BUDGET = RANK_BUDGET;
/** Best steps taken from each AND probe (every word; each pair of informative words). */
const PROBE_LIMIT = 40;
const PAIR_LIMIT = 60;
/** Matches of a pair ordered at most (the most recent when there are more). */
const PAIR_BUDGET = 400;
/** Words paired: the rarest few, each in under a fifth of the steps. */
const PAIR_TERMS = 4;
const PAIR_MAX_SHARE = 0.2;
/** Document frequencies are counted up to this; a term at the cap is "common". */
const DF_CAP = 3000;
/**
 * An AND probe whose words match more steps than this in all is ordered by the steps' own worth
 * (step-impact.ts), not bm25(): bm25 first counts every match of each word (~15 ns each), which
 * beyond this costs more than ranking the probe's rows. Below it (every probe at 100k steps but
 * for the every-word probe of several common words) the order is FTS5's bm25.
 */
const BM25_POSTINGS = 60_000;
type Probe = { t: QueryTerm; expr: string; df: number };
type Statement = BetterSqlite3.Statement<unknown[], unknown>;

/** Extra SQL conditions on `s` (steps) and `t` (threads) for the filters. */
export function filterSql(f: SearchFilters): { where: string[]; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  if (f.agents?.length) {
    where.push(`t.agent IN (${f.agents.map(() => '?').join(',')})`);
    params.push(...f.agents);
  }
  if (f.project) {
    const p = f.project.replace(/\/+$/, '') || '/';
    where.push(`(t.project = ? OR t.project LIKE ? ESCAPE '\\')`);
    params.push(p, `${p.replace(/[\\%_]/g, '\\$&')}${p === '/' ? '' : '/'}%`);
  }
  if (f.thread) {
    where.push('t.id = ?');
    params.push(f.thread);
  }
  if (f.spaces) {
    where.push(f.spaces.length ? `t.space IN (${f.spaces.map(() => '?').join(',')})` : '0');
    params.push(...f.spaces);
  }
  if (f.roles?.length) {
    where.push(`s.role IN (${f.roles.map(() => '?').join(',')})`);
    params.push(...f.roles);
  }
  if (f.since) {
    where.push('s.ts >= ?');
    params.push(f.since);
  }
  if (f.until) {
    where.push('s.ts <= ?');
    params.push(f.until);
  }
  return { where, params };
}

/** A step's own columns of a candidate, in the order `toCandidate` reads them. */
const STEP_COLS = `s.id, s.tid, s.step, s.role, s.kind, s.ts, s.line,
  substr(s.text, 1, ${CANDIDATE_TEXT_CHARS}), length(s.text), s.ctx`;
/** Its thread's columns (cached per process: `ThreadInfo`). */
const THREAD_COLS = 't.id, t.agent, t.project, t.title, t.source, t.started_at, t.updated_at';

/** What a candidate carries of its thread. */
type ThreadInfo = Pick<
  Candidate,
  'threadId' | 'agent' | 'project' | 'title' | 'source' | 'threadStartedAt' | 'threadUpdatedAt'
>;

const toThread = (r: unknown[], at: number): ThreadInfo => ({
  threadId: r[at] as string,
  agent: r[at + 1] as AgentId,
  project: (r[at + 2] as string | null) ?? null,
  title: (r[at + 3] as string | null) ?? null,
  source: r[at + 4] as string,
  threadStartedAt: (r[at + 5] as string | null) ?? null,
  threadUpdatedAt: (r[at + 6] as string | null) ?? null,
});

/** A raw STEP_COLS row and its thread. */
const toCandidate = (r: unknown[], t: ThreadInfo): Candidate => ({
  rowid: r[0] as number,
  threadId: t.threadId,
  agent: t.agent,
  project: t.project,
  title: t.title,
  threadStartedAt: t.threadStartedAt,
  threadUpdatedAt: t.threadUpdatedAt,
  source: t.source,
  step: r[2] as number,
  role: r[3] as Role,
  kind: r[4] as StepKind,
  timestamp: (r[5] as string | null) ?? null,
  line: r[6] as number,
  text: r[7] as string,
  chars: r[8] as number,
  context: r[9] as string,
});

/** Entries of each per-process cache at most (counts, threads: each a few short strings). */
const CACHE_ENTRIES = 20_000;

/** Recent steps sampled for the average text length, refreshed as the index grows by a quarter. */
const LENGTH_SAMPLE = 2000;

/**
 * A figure sampled from the recent steps (never 0), sampled again once the index (`total` steps)
 * has grown by a quarter since.
 */
function resampledAsIndexGrows(sample: () => number): (total: number) => number {
  let at: { value: number; total: number } | undefined;
  return (total) => {
    if (!at || total > at.total * 1.25 + 100) at = { value: sample(), total };
    return at.value || 1;
  };
}

export interface Retriever {
  candidates(query: ParsedQuery, filters: SearchFilters, limit: number): CandidateSet;
  candidatesAmong(rowids: readonly number[], filters: SearchFilters, limit: number): Candidate[];
  /** TranscriptStore.projects, cached per process while the database does not change. */
  projects(filters: SearchFilters): string[];
}

/** The retriever over a store's connection. */
export function createRetriever(db: Db): Retriever {
  const cache = new Map<string, Statement>();
  const prepared = (sql: string): Statement => {
    let s = cache.get(sql);
    if (!s) {
      s = db.prepare<unknown[]>(sql);
      if (cache.size > 200) cache.clear();
      cache.set(sql, s);
    }
    return s;
  };
  const maxId = db.prepare<[], { n: number | null }>('SELECT max(id) AS n FROM steps');
  const threadRange = db.prepare<[string], { lo: number | null; hi: number | null }>(
    'SELECT min(s.id) AS lo, max(s.id) AS hi FROM steps s JOIN threads t ON t.tid = s.tid WHERE t.id = ?',
  );
  // How many steps a term matches, counted up to a cap: exact for the rare terms that matter,
  // "common" beyond it, and never more than DF_CAP cheap iterations (the fts5vocab table would
  // give exact counts, but its lookups cost milliseconds on a large index).
  const countStatement = db.prepare<[string], { n: number }>(
    `SELECT count(*) AS n FROM (SELECT 1 FROM steps_fts WHERE steps_fts MATCH ? LIMIT ${DF_CAP})`,
  );
  // What does not change between queries while the database does not: each expression's count
  // and each thread's columns, kept per process and dropped whenever the database may have
  // changed — this connection's own writes (total_changes) or another's (data_version).
  const version = db
    .prepare<[]>('SELECT total_changes(), (SELECT data_version FROM pragma_data_version)')
    .raw();
  let cachedAt = '';
  const counts = new Map<string, number>();
  const threads = new Map<number, ThreadInfo>();
  const projectLists = new Map<string, string[]>();
  const checkCaches = () => {
    const now = (version.get() as unknown[]).join(':');
    if (now === cachedAt && counts.size < CACHE_ENTRIES && threads.size < CACHE_ENTRIES) return;
    cachedAt = now;
    counts.clear();
    threads.clear();
    projectLists.clear();
  };
  const countMatches = (expr: string): number => {
    let n = counts.get(expr);
    if (n === undefined) {
      n = countStatement.get(expr)?.n ?? 0;
      counts.set(expr, n);
    }
    return n;
  };

  const stats = createTermStats(db);
  const sampleChars = db.prepare<[], { n: number | null }>(
    `SELECT avg(length(text)) AS n FROM (SELECT text FROM steps ORDER BY id DESC LIMIT ${LENGTH_SAMPLE})`,
  );
  const avgChars = resampledAsIndexGrows(() => sampleChars.get()?.n ?? 0);
  /**
   * Matches of an expression: counted up to DF_CAP, then exact (cached) for a plain word. A word
   * already known to be common is not counted again (counting it costs DF_CAP iterations).
   */
  function matches(expr: string, word: string | null, total: number): number {
    const stem = word ? porterStem(word) : null;
    const kept = stem ? stats.known(stem, total) : undefined;
    if (kept !== undefined && kept >= DF_CAP) return kept;
    const n = countMatches(expr);
    return n >= DF_CAP && stem ? Math.max(n, stats.df(stem, total)) : n;
  }

  /**
   * The expression to send for a term and how many steps it matches. An identifier found whole
   * is searched whole: its parts (`move`, `route`) would match far more.
   */
  function probe(t: QueryTerm, total: number): Probe {
    if (t.kind === 'ident') {
      const exact = exactIdentExpr(t);
      const n = countMatches(exact);
      if (n > 0) return { t, expr: exact, df: n };
    }
    const expr = termExpr(t);
    if (!expr) return { t, expr, df: 0 };
    if (t.kind === 'phrase') {
      const n = countMatches(expr);
      return { t, expr, df: n };
    }
    return { t, expr, df: matches(expr, t.kind === 'word' ? t.text : null, total) };
  }

  /** The terms to OR: rare ones, rarest first, while their matches fit the budget. */
  function rareTerms(byDf: Probe[]): Probe[] {
    const picked: Probe[] = [];
    let total = 0;
    for (const p of byDf) {
      if (p.df >= DF_CAP || (picked.length > 0 && total + p.df > RARE_BUDGET)) break;
      picked.push(p);
      total += p.df;
    }
    return picked;
  }

  /**
   * The FROM and WHERE of a probe under the filters (`f`: the FTS table; `d`: its docsize row,
   * with `sizes`), or null when the filters match nothing.
   */
  function scope(filters: SearchFilters, sizes = false): { join: string; params: unknown[] } | null {
    const { where, params } = filterSql(filters);
    if (filters.thread) {
      // A thread's steps sit in one rowid range; FTS5 seeks straight to it.
      const r = threadRange.get(filters.thread);
      if (!r?.lo) return null;
      where.push('f.rowid BETWEEN CAST(? AS INTEGER) AND CAST(? AS INTEGER)');
      params.push(r.lo, r.hi);
    }
    const docsize = sizes ? ' JOIN steps_fts_docsize d ON d.id = f.rowid' : '';
    const join = where.length
      ? `FROM steps_fts f${docsize} JOIN steps s ON s.id = f.rowid JOIN threads t ON t.tid = s.tid WHERE steps_fts MATCH ? AND ${where.join(' AND ')}`
      : `FROM steps_fts f${docsize} WHERE steps_fts MATCH ?`;
    return { join, params };
  }

  /** Mean tokens of a step's text, sampled from the recent steps (refreshed as avgChars is). */
  const sampleSizes = db.prepare<[], { sz: Uint8Array }>(
    `SELECT sz FROM steps_fts_docsize ORDER BY id DESC LIMIT ${LENGTH_SAMPLE}`,
  );
  const avgTokens = resampledAsIndexGrows(() => {
    const rows = sampleSizes.all();
    return rows.length ? rows.reduce((n, r) => n + kindAndSize(r.sz).size, 0) / rows.length : 1;
  });

  /**
   * The best `limit` matches of `expr` in impact order, of at most `budget` (the most recent).
   * `most` bounds its matches from the counts already taken (an OR has at most the sum of its
   * terms' counts, an AND at most the smallest). One statement: FTS5 reads the matches in rowid
   * order, computing bm25 only for those read, and SQLite keeps the best (ties to the older step,
   * as FTS5's own rank order breaks them). When every match fits in `limit`, none is ranked: all
   * are taken. Matches are read newest first only when there may be more than the budget: FTS5
   * walks a doclist backwards by first reading it whole (a common word's, in every segment), so
   * a descending read costs ~1.7x an ascending one.
   */
  function ranked(
    expr: string,
    filters: SearchFilters,
    limit: number,
    budget: number,
    most: number,
    /** An AND probe's summed term counts (all its matches hold every term). */
    holdsAll?: { postings: number; total: number },
  ): number[] {
    const sized = !!holdsAll && holdsAll.postings > BM25_POSTINGS;
    const sc = scope(filters, sized);
    if (!sc) return [];
    const { join, params } = sc;
    if (most <= limit) return ids(`SELECT f.rowid AS id ${join} LIMIT ?`, [expr, ...params, limit]);
    if (holdsAll) {
      // An AND of words each in many steps often holds few steps (a fifth of the ranked probes
      // hold no more than `limit`): all of them are taken, unranked. bm25 would first count every
      // match of each word (most of a ranked probe's cost); this read stops after limit + 1.
      const few = ids(`SELECT f.rowid AS id ${join} LIMIT ?`, [expr, ...params, limit + 1]);
      if (few.length <= limit) return few;
    }
    const order = most > budget ? ' ORDER BY f.rowid DESC' : '';
    if (sized) {
      const avg = avgTokens(holdsAll.total);
      const rows = prepared(`SELECT f.rowid AS id, d.sz ${join}${order} LIMIT ?`)
        .raw()
        .all(expr, ...params, budget + 1) as [number, Uint8Array][];
      return rows
        .map(([id, sz]) => ({ id, w: stepImpact(sz, avg) }))
        .sort((a, b) => b.w - a.w || a.id - b.id)
        .slice(0, limit)
        .map((r) => r.id);
    }
    return ids(
      `SELECT id FROM (SELECT f.rowid AS id, f.rank AS r ${join}${order} LIMIT ?) ORDER BY r, id LIMIT ?`,
      [expr, ...params, budget + 1, limit],
    );
  }

  /**
   * The most recent matches of `expr`, unranked: no bm25, so no scan of each word's whole
   * document list; FTS5 intersects by seeking. The search layer scores them from their text.
   */
  function recent(expr: string, filters: SearchFilters, limit: number): number[] {
    const sc = scope(filters);
    if (!sc) return [];
    return ids(`SELECT f.rowid AS id ${sc.join} ORDER BY f.rowid DESC LIMIT ?`, [expr, ...sc.params, limit]);
  }

  function ids(sql: string, args: unknown[]): number[] {
    return prepared(sql)
      .pluck()
      .all(...args) as number[];
  }

  // Texts are read once per search, for the steps no earlier probe found: the probes overlap
  // heavily, and reading a text (up to CANDIDATE_TEXT_CHARS plus its neighbour field) costs more
  // than finding its id. The thread columns come from the cache when it holds them (joining and
  // decoding them was ~40% of reading the candidates).
  const ofIds = 'WHERE s.id IN (SELECT CAST(value AS INTEGER) FROM json_each(?))';
  const texts = db.prepare<[string]>(`SELECT ${STEP_COLS} FROM steps s ${ofIds}`).raw();
  const textsAndThreads = db
    .prepare<[string]>(
      `SELECT ${STEP_COLS}, ${THREAD_COLS} FROM steps s JOIN threads t ON t.tid = s.tid ${ofIds}`,
    )
    .raw();
  const threadsOf = db
    .prepare<[string]>(
      `SELECT t.tid, ${THREAD_COLS} FROM threads t WHERE t.tid IN (SELECT CAST(value AS INTEGER) FROM json_each(?))`,
    )
    .raw();
  function candidatesOf(order: number[]): Candidate[] {
    if (order.length === 0) return [];
    const byId = new Map<number, Candidate>();
    if (threads.size === 0) {
      for (const r of textsAndThreads.all(JSON.stringify(order)) as unknown[][]) {
        const tid = r[1] as number;
        let t = threads.get(tid);
        if (!t) {
          t = toThread(r, 10);
          threads.set(tid, t);
        }
        byId.set(r[0] as number, toCandidate(r, t));
      }
    } else {
      const rows = texts.all(JSON.stringify(order)) as unknown[][];
      const missing = [...new Set(rows.map((r) => r[1] as number).filter((tid) => !threads.has(tid)))];
      if (missing.length > 0)
        for (const r of threadsOf.all(JSON.stringify(missing)) as unknown[][])
          threads.set(r[0] as number, toThread(r, 1));
      for (const r of rows) {
        const t = threads.get(r[1] as number);
        if (t) byId.set(r[0] as number, toCandidate(r, t));
      }
    }
    return order.flatMap((id) => byId.get(id) ?? []);
  }

  return {
    candidatesAmong(rowids, filters, limit) {
      checkCaches();
      const { where, params } = filterSql(filters);
      const sql = `SELECT s.id FROM steps s JOIN threads t ON t.tid = s.tid ${ofIds}`;
      const conditions = where.map((w) => ` AND ${w}`).join('');
      const pass = new Set(ids(sql + conditions, [JSON.stringify(rowids), ...params]));
      return candidatesOf(rowids.filter((id) => pass.has(id)).slice(0, limit));
    },
    projects(filters) {
      checkCaches();
      const key = JSON.stringify([filters.agents ?? null, filters.spaces ?? null]);
      let list = projectLists.get(key);
      if (!list) {
        const { where, params } = filterSql({ agents: filters.agents, spaces: filters.spaces });
        list = db
          .prepare(
            `SELECT DISTINCT t.project FROM threads t WHERE t.project IS NOT NULL${where.map((w) => ` AND ${w}`).join('')}`,
          )
          .pluck()
          .all(...params) as string[];
        if (projectLists.size > 100) projectLists.clear();
        projectLists.set(key, list);
      }
      return [...list];
    },
    candidates(query, filters, limit) {
      checkCaches();
      const total = (maxId.get()?.n ?? 0) as number;
      const probes = query.terms.map((t) => probe(t, total));
      const dfs = probes.map((p) => p.df);
      // Only the counts were asked for (search/expansion.ts): no probe is sent.
      if (limit <= 0) return { stats: { total, avgChars: avgChars(total), df: dfs }, candidates: [] };
      // Words that occur nowhere (typos, words the answer doesn't use) must not sink the query.
      const byDf = probes.filter((p) => p.df > 0).sort((a, b) => a.df - b.df);
      // Each step once, in the order the probes found it.
      const byRow = new Set<number>();
      const add = (list: number[]) => {
        for (const id of list) byRow.add(id);
      };
      const exclusions = excludedExpr(query);
      const not = (expr: string) => (exclusions ? `(${expr}) NOT (${exclusions})` : expr);
      const rare = rareTerms(byDf);
      // 1. Rare words, ranked by the index.
      const rareMatches = rare.reduce((n, p) => n + p.df, 0);
      if (rare.length > 0)
        add(ranked(not(rare.map((p) => p.expr).join(' OR ')), filters, limit, RANK_BUDGET, rareMatches));
      // 2. Steps with every word, and with each pair of the informative words: the answer to a
      //    question usually shares several of its words, and two mid-frequency words together
      //    are rare even when neither is (what BM25 over every word would find, bounded).
      const both = (ps: Probe[]) => not(ps.map((p) => p.expr).join(' AND '));
      const postings = (ps: Probe[]) => ({ postings: ps.reduce((n, p) => n + p.df, 0), total });
      // When the rare words' matches all fit the limit, step 1 took every one of them (their
      // counts are exact below DF_CAP): an AND probe holding one of those words can only find
      // steps already taken, so it is not sent (a third of the questions; same candidates).
      const taken = new Set(rare.length > 0 && rareMatches <= limit ? rare : []);
      const news = (ps: Probe[]) => !ps.some((p) => taken.has(p));
      if (byDf.length > 1 && news(byDf))
        add(ranked(both(byDf), filters, PROBE_LIMIT, PAIR_BUDGET, byDf[0]!.df, postings(byDf)));
      const paired = byDf.filter((p) => p.df < total * PAIR_MAX_SHARE).slice(0, PAIR_TERMS);
      const isRare = new Set(rare);
      for (let i = 0; i < paired.length; i++)
        for (let j = i + 1; j < paired.length; j++) {
          if (isRare.has(paired[i]!) && isRare.has(paired[j]!)) continue; // ranked in step 1
          if (byDf.length === 2) continue; // the every-word probe
          const most = Math.min(paired[i]!.df, paired[j]!.df);
          const pair = [paired[i]!, paired[j]!];
          if (news(pair)) add(ranked(both(pair), filters, PAIR_LIMIT, PAIR_BUDGET, most, postings(pair)));
        }
      // 2b. Every informative word but the rarest few (core/probe-plan.ts).
      for (const ps of subsetProbes(byDf.filter((p) => p.df < total * PAIR_MAX_SHARE)))
        if (news(ps))
          add(
            ranked(
              both(ps),
              filters,
              PAIR_LIMIT,
              PAIR_BUDGET,
              Math.min(...ps.map((p) => p.df)),
              postings(ps),
            ),
          );
      // 3. Nothing yet: the most recent steps with any of the words.
      if (byRow.size === 0 && byDf.length > 0)
        add(recent(not(byDf.map((p) => p.expr).join(' OR ')), filters, limit));
      return { stats: { total, avgChars: avgChars(total), df: dfs }, candidates: candidatesOf([...byRow]) };
    },
  };
}
