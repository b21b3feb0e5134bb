/**
 * Ranking of the index's candidates, once for every backend (weights in search/weights.ts):
 *   step     = max(own, carry) + near, normalised by the query's best step: `own` is BM25 over
 *              its text × its kind's weight × a coverage lift; `carry` (a reply) a share of the
 *              prompt before it, the question it answers; `near` a smaller share of the turns
 *              around it — each read from its neighbour field or the adjacent candidates;
 *   session  = its best steps' scores, each later one discounted, lifted by the share of the
 *              query its steps hold between them, normalised by the best session;
 *   score    = step + w·session + role/speaker prior + project prior + reason + date prior +
 *              recency tie-break;
 *              a natural-language question's words inside identifiers count less (`identifier`),
 *              and a why-question's best reason step leads its session (promoteReasons).
 * Identical texts (a fork replaying its parent, a prompt echoed twice) collapse to their best.
 */
import { isTurn, splitContext } from '../core/neighbours.js';
import type { ParsedQuery } from '../core/query.js';
import type { DateSpan } from '../core/question-dates.js';
import { addresses, opensWith, type RoleCue, spokenBy, vocativeBlanker } from '../core/question-role.js';
import type { Role } from '../core/types.js';
import type { Candidate, TermStatistics } from '../ports/transcript-store.js';
import { createLexicalScorer } from './lexical.js';
import { inProjects } from './projects.js';
import { WEIGHTS as W } from './weights.js';

const DAY_MS = 86_400_000;

/** What a hit's score is made of (they add up to it). */
export interface ScoreParts {
  lexical: number;
  neighbours: number;
  session: number;
  role: number;
  /** A project the question names or is asked from (search/projects.ts). */
  project: number;
  /** A why-question's prior for steps that give a reason ("…because…"), a share of their lexical score. */
  reason: number;
  date: number;
  recency: number;
  /** A copy of a better-ranked step's text in another session: minus a share of its score. */
  copy: number;
  /**
   * A natural-language question's words matched only inside identifiers, paths or branch names
   * count `identifierWord` of a word in prose: minus what the step's own text lost by it
   * (`lexical` is the score before).
   */
  identifier: number;
  /** Closeness in meaning to the question (ScoredCandidates.rank's cosines): its share of the step's own score. */
  meaning: number;
}

export interface RankedStep extends Candidate {
  score: number;
  parts: ScoreParts;
}

/** What the question says besides its words. */
export interface QuestionCues {
  date: DateSpan | null;
  role: RoleCue;
  /** The question asks why ("why did we…", "the reason for…"). */
  why: boolean;
  /**
   * The query is a natural-language question, not keywords: its plain words inside identifiers
   * count less (`identifierWord`). Absent: false.
   */
  prose?: boolean;
  /**
   * Steps read for the named people alone (their greetings and turns), not ranked: where each
   * person is spoken to or speaks, beside the candidates themselves. Absent: none.
   */
  sightings?: readonly Candidate[];
  /**
   * The project where the named people are spoken to most (search.ts `participantsProject`):
   * their conversation. Only its sessions count a person greeted in another of its sessions.
   */
  home?: string | null;
  /** Projects the question names or is asked from: their sessions get a prior. Absent: none. */
  projects?: readonly string[];
}

const REASON_WORDS =
  /\b(?:because|since|due to|so that|the reason|as a result|caused by|which meant|that's why|otherwise|in order to)\b/gi;

/**
 * Whether `text` gives a reason about the question's topic: a sentence holding a reason word
 * ("because", "due to", "otherwise"…) also holds one of the question's words (`holds`), so a
 * "because" about something else in a long step does not count.
 */
export function givesReason(text: string, holds: (sentence: string) => boolean): boolean {
  REASON_WORDS.lastIndex = 0;
  for (let m = REASON_WORDS.exec(text); m; m = REASON_WORDS.exec(text)) {
    const before = text.slice(Math.max(0, m.index - 400), m.index);
    const cut = Math.max(before.search(/[.!?]\s[^.!?]*$|\n[^\n]*$/), -1);
    const from = m.index - before.length + (cut >= 0 ? cut + 1 : 0);
    const rest = text.slice(m.index, m.index + 400);
    const end = rest.search(/[.!?](?:\s|$)|\n/);
    if (holds(text.slice(from, m.index + (end >= 0 ? end : rest.length)))) return true;
  }
  return false;
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

const QUESTION_START =
  /^\s*(?:what|which|who|whom|whose|when|where|why|how|is|are|was|were|do|does|did|can|could|should|would|will|have|has|any)\b/i;

/** A turn that asks something: it ends with a question mark, or is short and opens like one. */
export function isQuestion(text: string): boolean {
  const t = text.trimEnd();
  return t.endsWith('?') || (t.length < 200 && QUESTION_START.test(t));
}

/** An assistant's turn: the turn before it may be the question it answers. */
const isReply = (c: Candidate) => c.role === 'assistant' && isTurn(c.kind);

const projectKey = (c: Candidate) => `project:${c.project ?? c.threadId}`;

/**
 * The role the question's subject speaks as, by thread and by project (`project:<path>` keys):
 * the subject is the first name ("what did Oscar suggest to Camille" asks for Oscar's turns), and
 * in a two-person conversation a person speaks as the role opposite the one that greets them
 * ("Hey Oscar!" is the user's turn, so Oscar is the assistant), or as the role that greets the
 * other person named. Counted over a session's candidates, and over its project's for a session
 * whose candidates hold no greeting (the same two people talk in one project).
 */
export function subjectRoles(candidates: readonly Candidate[], names: readonly string[]): Map<string, Role> {
  const roles = new Map<string, Role>();
  if (names.length === 0) return roles;
  const [subject, ...others] = names;
  // Votes per key: + for "the subject speaks as assistant", − for user.
  const votes = new Map<string, number>();
  const vote = (key: string, v: number) => votes.set(key, (votes.get(key) ?? 0) + v);
  for (const c of candidates) {
    if (!isTurn(c.kind) || (c.role !== 'user' && c.role !== 'assistant')) continue;
    const sign = c.role === 'user' ? 1 : -1;
    let v = 0;
    if (addresses(c.text, [subject!])) v = sign;
    else if (others.length > 0 && addresses(c.text, others)) v = -sign;
    if (v === 0) continue;
    vote(c.threadId, v);
    vote(projectKey(c), v);
  }
  for (const [key, v] of votes) if (v !== 0) roles.set(key, v > 0 ? 'assistant' : 'user');
  return roles;
}

/**
 * A why-question's answer is the step that says why, in the session the topic points to: in each
 * session, its best step giving a reason about the topic (a `reason` part above 0), when it
 * scores at least `reasonReach` of the session's best step, is lifted just above that step. The
 * session's best score is unchanged, so which session comes first is not (only the order inside).
 */
export function promoteReasons(steps: RankedStep[]): void {
  const best = new Map<string, RankedStep>();
  const bestReason = new Map<string, RankedStep>();
  for (const r of steps) {
    const b = best.get(r.threadId);
    if (!b || r.score > b.score) best.set(r.threadId, r);
    if (r.parts.reason <= 0) continue;
    const br = bestReason.get(r.threadId);
    if (!br || r.score > br.score) bestReason.set(r.threadId, r);
  }
  for (const [id, r] of bestReason) {
    const top = best.get(id)!;
    if (top === r || r.score < W.reasonReach * top.score) continue;
    // Just above: a thousandth, so the session's other steps keep their order.
    const lift = top.score - r.score + 0.001;
    r.parts.reason += lift;
    r.score += lift;
  }
}

/**
 * The names that are people, and the sessions they are party to (a share, 0–1, of the people
 * found). A capitalised place or product ("When did Nils go to Lisbon?") is never greeted, and
 * must not halve the share of the people found in the right conversation. Looked for among the
 * candidates and the steps read for the names alone (a session's greeting is rarely among the
 * candidates of the question's other words). A person spoken to or speaking ("Hey Nils!",
 * "Maria: …") is party to every session of their home project: a conversation's greetings fall in
 * some of its sessions, not all (a work project that mentions a colleague is not their
 * conversation). A person nobody speaks to or as (a child, a colleague talked about) is found
 * where a candidate opens with them as its subject ("Lucia has started swimming"), in that
 * session; for a person spoken to somewhere such a turn says nothing.
 */
function partiesOf(
  candidates: readonly Candidate[],
  names: readonly string[],
  sightings: readonly Candidate[],
  home: string | null,
): { people: Set<string>; present: Map<string, number> } {
  if (names.length === 0) return { people: new Set(), present: new Map() };
  const ranked = new Set(candidates);
  const spokenIn = new Map<string, Set<string>>();
  const subjectIn = new Map<string, Set<string>>();
  const projectOf = new Map<string, string>();
  const mark = (where: Map<string, Set<string>>, key: string, n: string) => {
    const seen = where.get(key);
    if (seen) seen.add(n);
    else where.set(key, new Set([n]));
  };
  for (const c of [...ranked, ...sightings]) {
    projectOf.set(c.threadId, projectKey(c));
    for (const n of names) {
      if (addresses(c.text, [n]) || spokenBy(c.text, [n])) {
        mark(spokenIn, c.threadId, n);
        if (c.project && c.project === home) mark(spokenIn, projectKey(c), n);
      } else if (ranked.has(c) && opensWith(c.text, [n])) mark(subjectIn, c.threadId, n);
    }
  }
  const spoken = new Set<string>();
  for (const seen of spokenIn.values()) for (const n of seen) spoken.add(n);
  for (const seen of subjectIn.values()) for (const n of seen) if (spoken.has(n)) seen.delete(n);
  const people = new Set(spoken);
  for (const seen of subjectIn.values()) for (const n of seen) people.add(n);
  const present = new Map<string, number>();
  for (const [id, key] of projectOf) {
    const subject = subjectIn.get(id) ?? [];
    const own = new Set([...(spokenIn.get(id) ?? []), ...subject]).size;
    const wide = new Set([...(spokenIn.get(key) ?? []), ...subject]).size;
    const k = Math.max(own, wide);
    if (k > 0) present.set(id, k / people.size);
  }
  return { people, present };
}

type LexicalScorer = ReturnType<typeof createLexicalScorer>;

/** A candidate during ranking: its own relevance first, its neighbours' and the priors after. */
interface Scored {
  c: Candidate;
  own: number;
  raw: number;
  question: boolean;
  carry: number;
  near: number;
  base: number;
  matched: boolean[];
  identLoss: number;
  /** The part of `own` that is closeness in meaning (addMeaning). */
  meaning: number;
  /** Share of the question's weight the step's own text holds. */
  coverage: number;
}

/**
 * Closeness in meaning as part of a step's own relevance, on the words' scale: each candidate
 * with a vector gains W.meaning × (its cosine − the candidates' mean cosine, never below 0) × the
 * best words-only score × what the words leave unexplained (ScoredCandidates.unexplained).
 * Measured against the mean, a step gains for being closer than the usual candidate, so steps
 * without a vector (tool calls and output, reasoning) are not pushed down by the rest's small
 * gains. Scaled by what the words leave unexplained: when some step holds all the
 * question's words the words decide (the model tells near-identical topics apart worse than they
 * do); when none holds them — an answer worded differently — meaning counts most. Added before
 * the question-turn discount, so a prompt repeating the question still gives way to the reply
 * after it, which carries the prompt's score as its answer (step 2 below).
 */
function addMeaning(
  scored: Scored[],
  cosines: ReadonlyMap<number, number>,
  /** What the words leave unexplained (ScoredCandidates.unexplained). */
  unexplained: number,
): void {
  let top = 0;
  let sum = 0;
  let n = 0;
  for (const s of scored) {
    top = Math.max(top, s.raw);
    const c = cosines.get(s.c.rowid);
    if (c !== undefined) {
      sum += c;
      n++;
    }
  }
  const mean = n > 0 ? sum / n : 0;
  for (const s of scored) {
    const c = cosines.get(s.c.rowid);
    if (c === undefined || c <= mean) continue;
    const m = W.meaning * (c - mean) * top * unexplained;
    s.raw += m;
    s.meaning = s.question ? m * W.questionTurn : m;
    s.own += s.meaning;
  }
}

/** Ranked candidates, best first, and each session's relevance. */
export interface Ranking {
  steps: RankedStep[];
  sessions: SessionScores;
}

/**
 * Candidates scored by their own words (the costly part of ranking), before closeness in meaning
 * is known: a search reads and scores first, and asks for the question's vector only when it can
 * change the order (`unexplained` > 0).
 */
export interface ScoredCandidates {
  /**
   * What the words leave unexplained: 1 − the best share of the question's weight any candidate
   * holds × the share of it found anywhere (a word found nowhere counted missing). Closeness in
   * meaning is scaled by it, so at 0 it cannot move a single step.
   */
  unexplained: number;
  /** Finish the ranking, with each candidate's cosine to the question where known. Call once. */
  rank(meaning?: ReadonlyMap<number, number>): Ranking;
}

/** Rank candidates best first by their words and the cues; also returns each session's relevance. */
export function rankCandidates(
  candidates: Candidate[],
  query: ParsedQuery,
  stats: TermStatistics,
  cues: QuestionCues,
  now: number,
): Ranking {
  return scoreCandidates(candidates, query, stats, cues, now).rank();
}

/** Step 1 of ranking (each step's own relevance); `rank` does the rest. */
export function scoreCandidates(
  candidates: Candidate[],
  query: ParsedQuery,
  stats: TermStatistics,
  cues: QuestionCues,
  now: number,
): ScoredCandidates {
  const { people, present } = partiesOf(candidates, cues.role.names, cues.sightings ?? [], cues.home ?? null);
  const names = new Set(cues.role.names.map((n) => n.toLowerCase()));
  const lexical = createLexicalScorer(query, stats, {
    identShare: cues.prose ? W.identifierWord : 1,
    names,
    nameWeight: W.nameTerm,
  });
  const wantsPrompts = cues.role.role === 'user';
  // "Hey Nils!" names who is spoken to: a named person's greetings are not the question's word.
  const unaddressed = vocativeBlanker(cues.role.names);
  // 1. Each step's own relevance.
  // `own`: the step's own words. `carry`: for a reply, the prompt before it (its question);
  // `near`: any adjacent turn. Both from the neighbour field or the adjacent candidates.
  const scored: Scored[] = [];
  for (const c of candidates) {
    const lex = lexical(unaddressed(c.text), c.chars, unaddressed(c.context));
    const question = c.kind === 'prompt' && isQuestion(c.text);
    const kw = W.kind[c.kind] ?? 1;
    const lift = kw * (1 + W.coverage * lex.coverage * lex.coverage);
    // A step the index matched by a form the text scan cannot see (an identifier substring)
    // still ranks, below every step with a counted word.
    const raw = lex.text > 0 ? lex.text * lift : lex.previous + lex.next > 0 ? 0 : 1e-6;
    const own = question ? raw * W.questionTurn : raw;
    // What the own score lost to identifier-only matches, on the same scale.
    const identLoss = lex.text > 0 ? lex.identifier * lift * (question ? W.questionTurn : 1) : 0;
    const reply = isReply(c);
    // Only a question is answered by the turn after it ("Running the tests…" follows a request).
    const answers = reply && isQuestion(splitContext(c.context).previous);
    const carry = answers ? W.answerFollows * lex.previous * kw : 0;
    // A question gains nothing from the turn after it (that turn is its answer, and the hit),
    // unless the question asks for the user's own words ("what did I ask…").
    const after = question && !wantsPrompts ? 0 : lex.next;
    const near = W.neighbourScore * Math.max(answers ? 0 : lex.previous, after) * kw;
    scored.push({
      c,
      own,
      raw,
      question,
      carry,
      near,
      base: Math.max(own, carry) + near,
      matched: lex.matched,
      identLoss,
      meaning: 0,
      coverage: lex.coverage,
    });
  }
  let covered = 0;
  for (const s of scored) covered = Math.max(covered, s.coverage);
  // Shares are sums of idf weights: a step holding every word may come to 0.999…, which is all.
  const left = 1 - covered * lexical.found;
  const unexplained = left < 1e-9 ? 0 : left;
  let ranked = false;
  return {
    unexplained,
    rank(meaning) {
      if (ranked) throw new Error('rank() runs once: it finishes the scores in place');
      ranked = true;
      if (meaning?.size && unexplained > 0) addMeaning(scored, meaning, unexplained);
      return finishRanking(scored, query, lexical, cues, people, present, now);
    },
  };
}

/** Steps 2–4 of ranking: neighbours, sessions, priors; then copies. */
function finishRanking(
  scored: Scored[],
  query: ParsedQuery,
  lexical: LexicalScorer,
  cues: QuestionCues,
  people: ReadonlySet<string>,
  present: ReadonlyMap<string, number>,
  now: number,
): Ranking {
  const wantsPrompts = cues.role.role === 'user';

  // 2. Neighbours among the candidates: the adjacent turns' own scores.
  const byThread = new Map<string, Scored[]>();
  for (const s of scored) {
    const list = byThread.get(s.c.threadId);
    if (list) list.push(s);
    else byThread.set(s.c.threadId, [s]);
  }
  for (const list of byThread.values()) {
    if (list.length < 2) continue;
    list.sort((a, b) => a.c.step - b.c.step);
    for (let i = 0; i < list.length; i++) {
      const s = list[i]!;
      for (let j = i - 1; j >= 0 && s.c.step - list[j]!.c.step <= W.neighbourSpan; j--) {
        const p = list[j]!;
        if (!isTurn(p.c.kind)) continue;
        // The prompt just before a reply: the reply is likely its answer.
        if (p.question && isReply(s.c)) s.carry = Math.max(s.carry, W.answerFollows * p.raw);
        else s.near = Math.max(s.near, W.neighbourScore * p.own);
        break;
      }
      for (
        let j = i + 1;
        !(s.question && !wantsPrompts) && j < list.length && list[j]!.c.step - s.c.step <= W.neighbourSpan;
        j++
      ) {
        if (!isTurn(list[j]!.c.kind)) continue;
        s.near = Math.max(s.near, W.neighbourScore * list[j]!.own);
        break;
      }
    }
  }
  for (const s of scored) s.base = Math.max(s.own, s.carry) + s.near;
  let maxStep = 0;
  for (const s of scored) maxStep = Math.max(maxStep, s.base);
  maxStep ||= 1;

  // 3. Sessions: several partial matches in one session point at it.
  const sessions: SessionScores = new Map();
  let maxSession = 0;
  for (const [id, list] of byThread) {
    const bases = list.map((s) => s.base).sort((a, b) => b - a);
    let v = 0;
    for (let i = 0; i < Math.min(bases.length, W.sessionSteps); i++) v += bases[i]! * W.sessionDecay ** i;
    // A session whose steps hold between them all the question's words is the one it is about.
    const union = query.terms.map((_, i) => list.some((s) => s.matched[i]));
    const cov = lexical.share(union);
    v *= 1 + W.sessionCoverage * cov * cov;
    sessions.set(id, v);
    maxSession = Math.max(maxSession, v);
  }
  for (const [id, v] of sessions) sessions.set(id, maxSession > 0 ? v / maxSession : 0);

  // 4. Priors, and the sum. A session where the named people are spoken to or speak is theirs:
  // their greetings no longer count as words (above), so this is what says which conversation
  // the question is about.
  const { date, role } = cues;
  const named = role.names.filter((n) => people.has(n));
  // The question's subject: the first person it names (see subjectRoles).
  const subject = named.slice(0, 1);
  const speakerRole = subjectRoles(
    scored.map((s) => s.c),
    named,
  );
  const steps = scored.map((s): RankedStep => {
    const { c } = s;
    let rolePart = role.role && c.role === role.role ? W.role * role.strength : 0;
    if (
      role.names.length > 0 &&
      (spokenBy(c.text, subject) ||
        ((speakerRole.get(c.threadId) ?? speakerRole.get(projectKey(c))) === c.role && isTurn(c.kind)))
    )
      rolePart += W.speaker;
    rolePart += W.participants * (present.get(c.threadId) ?? 0);
    const datePart = date
      ? (inSpan(c.timestamp, date) ? W.dateStep : 0) + (sessionOverlaps(c, date) ? W.dateSession : 0)
      : 0;
    const parts: ScoreParts = {
      lexical: (s.own - s.meaning + s.identLoss) / maxStep,
      neighbours: (s.base - s.own) / maxStep,
      session: W.session * (sessions.get(c.threadId) ?? 0),
      role: rolePart,
      project: inProjects(c.project, cues.projects ?? []) ? W.project : 0,
      reason:
        cues.why && s.own > 0 && givesReason(c.text, (t) => lexical(t, t.length, '').text > 0)
          ? (W.reason * s.own) / maxStep
          : 0,
      date: datePart,
      recency: recencyPrior(c.timestamp, now),
      copy: 0,
      identifier: s.identLoss > 0 ? -s.identLoss / maxStep : 0,
      meaning: s.meaning / maxStep,
    };
    const score =
      parts.identifier +
      parts.lexical +
      parts.meaning +
      parts.neighbours +
      parts.session +
      parts.role +
      parts.project +
      parts.reason +
      parts.date +
      parts.recency;
    // Object.assign, not a spread: V8 copies a 17-field object with `{ ...c, x }` ~15x slower.
    return Object.assign({}, c, { score, parts });
  });
  if (cues.why) promoteReasons(steps);
  steps.sort((a, b) => b.score - a.score || b.rowid - a.rowid);
  // The same text in several places (a fork replaying its parent, a resumed session, a line
  // said again in another session): within one session it is one hit; each copy in another
  // session stays, discounted, since which copy a question means is the session's call and a
  // plain copy in the wrong session must not hide the right one.
  const copies = new Map<string, Set<string>>();
  const unique: RankedStep[] = [];
  for (const r of steps) {
    const key = `${r.kind}:${r.chars}:${r.text.slice(0, 200)}`;
    const threads = copies.get(key);
    if (!threads) {
      copies.set(key, new Set([r.threadId]));
      unique.push(r);
      continue;
    }
    if (threads.has(r.threadId)) continue;
    const cut = r.score * (1 - W.copyDecay ** threads.size);
    threads.add(r.threadId);
    unique.push(Object.assign({}, r, { score: r.score - cut, parts: { ...r.parts, copy: -cut } }));
  }
  unique.sort((a, b) => b.score - a.score || b.rowid - a.rowid);
  return { steps: unique, sessions };
}
