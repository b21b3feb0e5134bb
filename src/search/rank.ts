/**
 * Ranking of the index's candidates, once for every backend (weights in search/weights.ts):
 *   step     = BM25 over its text × its kind's weight × a coverage lift, plus its neighbours:
 *              its neighbour field's BM25 or the best adjacent turn's score (the larger, each
 *              down-weighted), normalised by the query's best step;
 *   session  = its best steps' scores, each later one discounted, normalised by the best session;
 *   score    = step + w·session + role/speaker prior + date prior + recency tie-break.
 * Identical texts (a fork replaying its parent, a prompt echoed twice) collapse to their best.
 */
import { isTurn } from '../core/neighbours.js';
import type { ParsedQuery } from '../core/query.js';
import type { DateSpan } from '../core/question-dates.js';
import { type RoleCue, spokenBy } from '../core/question-role.js';
import type { Candidate, TermStatistics } from '../ports/transcript-store.js';
import { createLexicalScorer } from './lexical.js';
import { WEIGHTS as W } from './weights.js';

const DAY_MS = 86_400_000;

/** What a hit's score is made of (they add up to it). */
export interface ScoreParts {
  lexical: number;
  neighbours: number;
  session: number;
  role: number;
  date: number;
  recency: number;
}

export interface RankedStep extends Candidate {
  score: number;
  parts: ScoreParts;
}

/** What the question says besides its words. */
export interface QuestionCues {
  date: DateSpan | null;
  role: RoleCue;
}

/** A session's relevance, 0–1, by thread id. */
export type SessionScores = Map<string, number>;

export function recencyPrior(timestamp: string | null, now: number): number {
  if (!timestamp) return 0;
  const t = Date.parse(timestamp);
  if (Number.isNaN(t)) return 0;
  const ageDays = Math.max(0, (now - t) / DAY_MS);
  return W.recency * 0.5 ** (ageDays / W.recencyHalfLifeDays);
}

const inSpan = (ts: string | null, span: DateSpan) => {
  if (!ts) return false;
  const t = Date.parse(ts);
  return t >= span.from && t <= span.to;
};

function sessionOverlaps(c: Candidate, span: DateSpan): boolean {
  const a = Date.parse(c.threadStartedAt ?? c.timestamp ?? '');
  const b = Date.parse(c.threadUpdatedAt ?? c.timestamp ?? '');
  if (Number.isNaN(a) && Number.isNaN(b)) return false;
  return (Number.isNaN(a) ? b : a) <= span.to && (Number.isNaN(b) ? a : b) >= span.from;
}

/** Rank candidates best first; also returns each session's relevance. */
export function rankCandidates(
  candidates: Candidate[],
  query: ParsedQuery,
  stats: TermStatistics,
  cues: QuestionCues,
  now: number,
): { steps: RankedStep[]; sessions: SessionScores } {
  const lexical = createLexicalScorer(query, stats);
  // 1. Each step's own relevance; identical texts keep their best copy.
  // `own`: the step's own words; `context`: its neighbour field's, already weighted.
  const byText = new Map<string, { c: Candidate; own: number; context: number; base: number }>();
  for (const c of candidates) {
    const lex = lexical(c.text, c.chars, c.context);
    const lift = (W.kind[c.kind] ?? 1) * (1 + W.coverage * lex.coverage * lex.coverage);
    // A step the index matched by a form the text scan cannot see (an identifier substring)
    // still ranks, below every step with a counted word.
    const own = lex.text > 0 ? lex.text * lift : lex.context > 0 ? 0 : 1e-6;
    const context = W.contextField * lex.context * lift;
    const base = own + context;
    const key = `${c.kind}:${c.chars}:${c.text.slice(0, 200)}`;
    const seen = byText.get(key);
    if (!seen || seen.base < base || (seen.base === base && seen.c.rowid < c.rowid))
      byText.set(key, { c, own, context, base });
  }
  const scored = [...byText.values()];

  // 2. Neighbours: the neighbour field, or the best adjacent turn of the same session among the
  //    candidates (its own words), whichever says more.
  const byThread = new Map<string, typeof scored>();
  for (const s of scored) {
    const list = byThread.get(s.c.threadId);
    if (list) list.push(s);
    else byThread.set(s.c.threadId, [s]);
  }
  const neighbour = new Map<number, number>();
  for (const list of byThread.values()) {
    if (list.length < 2) continue;
    list.sort((a, b) => a.c.step - b.c.step);
    for (let i = 0; i < list.length; i++) {
      let best = 0;
      for (let j = i - 1; j >= 0 && list[i]!.c.step - list[j]!.c.step <= W.neighbourSpan; j--)
        if (isTurn(list[j]!.c.kind)) best = Math.max(best, list[j]!.own);
      for (let j = i + 1; j < list.length && list[j]!.c.step - list[i]!.c.step <= W.neighbourSpan; j++)
        if (isTurn(list[j]!.c.kind)) best = Math.max(best, list[j]!.own);
      if (best > 0) neighbour.set(list[i]!.c.rowid, W.neighbourScore * best);
    }
  }
  const around = (s: (typeof scored)[number]) => Math.max(s.context, neighbour.get(s.c.rowid) ?? 0);
  let maxStep = 0;
  for (const s of scored) maxStep = Math.max(maxStep, s.own + around(s));
  maxStep ||= 1;

  // 3. Sessions: several partial matches in one session point at it.
  const sessions: SessionScores = new Map();
  let maxSession = 0;
  for (const [id, list] of byThread) {
    const bases = list.map((s) => s.own + around(s)).sort((a, b) => b - a);
    let v = 0;
    for (let i = 0; i < Math.min(bases.length, W.sessionSteps); i++) v += bases[i]! * W.sessionDecay ** i;
    sessions.set(id, v);
    maxSession = Math.max(maxSession, v);
  }
  for (const [id, v] of sessions) sessions.set(id, maxSession > 0 ? v / maxSession : 0);

  // 4. Priors, and the sum.
  const { date, role } = cues;
  const steps = scored.map((s): RankedStep => {
    const { c } = s;
    let rolePart = role.role && c.role === role.role ? W.role * role.strength : 0;
    if (role.names.length > 0 && spokenBy(c.text, role.names)) rolePart += W.speaker;
    const datePart = date
      ? (inSpan(c.timestamp, date) ? W.dateStep : 0) + (sessionOverlaps(c, date) ? W.dateSession : 0)
      : 0;
    const parts: ScoreParts = {
      lexical: s.own / maxStep,
      neighbours: around(s) / maxStep,
      session: W.session * (sessions.get(c.threadId) ?? 0),
      role: rolePart,
      date: datePart,
      recency: recencyPrior(c.timestamp, now),
    };
    const score = parts.lexical + parts.neighbours + parts.session + parts.role + parts.date + parts.recency;
    return { ...c, score, parts };
  });
  steps.sort((a, b) => b.score - a.score || b.rowid - a.rowid);
  return { steps, sessions };
}
