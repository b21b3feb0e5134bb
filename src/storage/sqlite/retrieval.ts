/**
 * Bounded retrieval over the FTS5 index. Ranking a match costs ~2 µs in FTS5, so a question of
 * common words over a million steps would rank hundreds of thousands of rows. Instead:
 *   1. the strict tier: steps that contain every term (small intersections, cheap to rank);
 *   2. the relevance tier: steps that contain one of the rarest terms (chosen by document
 *      frequency from the vocabulary, up to a budget), ranked by all terms;
 * and each tier ranks at most BUDGET rows, the most recent ones when a tier matches more.
 */
import type BetterSqlite3 from 'better-sqlite3';
import { identParts, joinedForm } from '../../core/idents.js';
import { porterStem } from '../../core/porter.js';
import type { ParsedQuery, QueryTerm } from '../../core/query.js';
import type { AgentId, Role, StepKind } from '../../core/types.js';
import type { Candidate, SearchFilters } from '../../ports/transcript-store.js';
import { allTermsExpr, rareTermsExpr } from './fts-query.js';
import type { Db } from './open.js';

// better-sqlite3 binds JS numbers as REAL, and FTS5 silently ignores a rowid constraint with a
// REAL value (every match comes back): rowid parameters are always CAST to INTEGER.

/** Rows a tier may rank. */
export const RANK_BUDGET = 1500;

type Row = Record<string, unknown>;
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

const CANDIDATE_COLS = `s.id AS rowid, s.step, s.role, s.kind, s.ts, s.line, s.hash,
  t.id AS thread_id, t.agent, t.project, t.title, t.source`;

const toCandidate = (r: Row, strict: boolean): Candidate => ({
  rowid: r.rowid as number,
  bm25: -(r.rank as number),
  strict,
  threadId: r.thread_id as string,
  agent: r.agent as AgentId,
  project: (r.project as string | null) ?? null,
  title: (r.title as string | null) ?? null,
  source: r.source as string,
  step: r.step as number,
  role: r.role as Role,
  kind: r.kind as StepKind,
  timestamp: (r.ts as string | null) ?? null,
  line: r.line as number,
  hash: r.hash as number,
});

export interface Retriever {
  candidates(query: ParsedQuery, filters: SearchFilters, limit: number): Candidate[];
}

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
  const vocabDoc = db.prepare<[string], { doc: number }>('SELECT doc FROM steps_vocab WHERE term = ?');
  const vocabRange = db.prepare<[string, string], { n: number | null }>(
    'SELECT sum(doc) AS n FROM (SELECT doc FROM steps_vocab WHERE term >= ? AND term < ? LIMIT 200)',
  );
  const threadRange = db.prepare<[string], { lo: number | null; hi: number | null }>(
    'SELECT min(s.id) AS lo, max(s.id) AS hi FROM steps s JOIN threads t ON t.tid = s.tid WHERE t.id = ?',
  );

  const wordDf = (w: string) => vocabDoc.get(porterStem(w.toLowerCase()))?.doc ?? 0;

  /** Estimated number of steps a term matches. */
  function df(t: QueryTerm): number {
    switch (t.kind) {
      case 'word':
        return wordDf(t.text);
      case 'phrase':
        return Math.min(...t.text.split(' ').map(wordDf));
      case 'prefix': {
        const hi = t.text.slice(0, -1) + String.fromCharCode(t.text.charCodeAt(t.text.length - 1) + 1);
        return vocabRange.get(t.text, hi)?.n ?? 0;
      }
      case 'ident': {
        const parts = identParts(t.text);
        return wordDf(joinedForm(t.text)) + (parts.length ? Math.min(...parts.map(wordDf)) : 0);
      }
    }
  }

  /** The terms to OR in the relevance tier: rarest first while their matches fit the budget. */
  function rareTerms(terms: QueryTerm[]): QueryTerm[] {
    const byDf = terms.map((t) => ({ t, df: df(t) })).sort((a, b) => a.df - b.df);
    const picked: QueryTerm[] = [];
    let total = 0;
    for (const { t, df: n } of byDf) {
      if (picked.length > 0 && total + n > RANK_BUDGET) break;
      picked.push(t);
      total += n;
    }
    return picked;
  }

  /** Rank one tier: at most RANK_BUDGET matches (the most recent when there are more). */
  function tier(expr: string, filters: SearchFilters, limit: number, strict: boolean): Candidate[] {
    const { where, params } = filterSql(filters);
    if (filters.thread) {
      // A thread's steps sit in one rowid range; FTS5 seeks straight to it.
      const r = threadRange.get(filters.thread);
      if (!r?.lo) return [];
      where.push('f.rowid BETWEEN CAST(? AS INTEGER) AND CAST(? AS INTEGER)');
      params.push(r.lo, r.hi);
    }
    const join = where.length
      ? `FROM steps_fts f JOIN steps s ON s.id = f.rowid JOIN threads t ON t.tid = s.tid WHERE steps_fts MATCH ? AND ${where.join(' AND ')}`
      : 'FROM steps_fts f WHERE steps_fts MATCH ?';
    const pivot = prepared(
      `SELECT f.rowid AS id ${join} ORDER BY f.rowid DESC LIMIT 1 OFFSET ${RANK_BUDGET}`,
    ).get(expr, ...params) as { id: number } | undefined;
    const bound = pivot ? ' AND f.rowid >= CAST(? AS INTEGER)' : '';
    const args = pivot ? [expr, ...params, pivot.id, limit] : [expr, ...params, limit];
    const sql = where.length
      ? `SELECT ${CANDIDATE_COLS}, f.rank AS rank ${join}${bound} ORDER BY f.rank LIMIT ?`
      : `SELECT ${CANDIDATE_COLS}, c.rank AS rank FROM (SELECT f.rowid AS id, f.rank AS rank ${join}${bound} ORDER BY f.rank LIMIT ?) c
         JOIN steps s ON s.id = c.id JOIN threads t ON t.tid = s.tid ORDER BY c.rank`;
    return (prepared(sql).all(...args) as Row[]).map((r) => toCandidate(r, strict));
  }

  return {
    candidates(query, filters, limit) {
      if (query.terms.length === 0) return [];
      const byRow = new Map<number, Candidate>();
      const strict = allTermsExpr(query);
      if (strict) for (const c of tier(strict, filters, limit, true)) byRow.set(c.rowid, c);
      if (query.terms.length > 1) {
        const rel = rareTermsExpr(query, rareTerms(query.terms));
        if (rel)
          for (const c of tier(rel, filters, limit, false)) if (!byRow.has(c.rowid)) byRow.set(c.rowid, c);
      }
      return [...byRow.values()];
    },
  };
}
