/** Question or keywords in, ranked hits (or sessions) with snippets and provenance out. */
import { parseQuery } from '../core/query.js';
import { findDateSpan } from '../core/question-dates.js';
import { addresses, roleCue } from '../core/question-role.js';
import { makeSnippet } from '../core/snippet.js';
import { squash } from '../core/text.js';
import type { AgentId, Role, StepKind } from '../core/types.js';
import { cosine } from '../core/vectors.js';
import type { Candidate, SearchFilters, TranscriptStore } from '../ports/transcript-store.js';
import { expandedCandidates, relatedTermsOf } from './expansion.js';
import { namedProjects, projectAt } from './projects.js';
import { isQuestion, type RankedStep, type ScoreParts, scoreCandidates } from './rank.js';
import { WEIGHTS } from './weights.js';

export interface SearchOptions extends SearchFilters {
  limit?: number;
  /** Snippet length in FTS tokens (roughly words). */
  snippetTokens?: number;
  /** What "yesterday" and "last week" mean, and recency's reference (epoch ms; default: now). */
  now?: number;
  /** `thread`: the best sessions, each with its best steps. */
  by?: 'step' | 'thread';
  /**
   * The folder the question is asked from (an agent's or a shell's working folder): its
   * project's sessions get a prior, not a filter (search/projects.ts).
   */
  cwd?: string;
  /** Add each hit's score components and what the question was read as. */
  explain?: boolean;
  /**
   * Also credit the question's related words and other spellings (search/expansion.ts; default
   * true); false searches the words as typed.
   */
  expand?: boolean;
}

export interface QuestionMeaning {
  query: Float32Array;
  /** Stored vectors of these steps (steps without one are absent). */
  vectors(rowids: readonly number[]): ReadonlyMap<number, Int8Array>;
  /** The steps closest to the question in meaning, at most `limit`, closest first. */
  nearest(limit: number): number[];
}

/** A hit's score components (they add up to its score). */
export type SearchExplain = { [K in keyof ScoreParts]: number };

export interface SearchHit {
  thread: string;
  agent: AgentId;
  project: string | null;
  /** The thread's title. */
  title: string | null;
  /** The thread's first and last step times (print once per thread). */
  thread_started_at: string | null;
  thread_updated_at: string | null;
  step: number;
  role: Role;
  kind: StepKind;
  timestamp: string | null;
  snippet: string;
  score: number;
  source: { path: string; line: number };
  explain?: SearchExplain;
  /** Set (by the transcript service) when the hit's transcript was deleted or truncated. */
  source_gone?: { at: string; reason: 'deleted' | 'truncated' };
}

/** A session as an answer (`by: 'thread'`). */
export interface ThreadHit {
  thread: string;
  agent: AgentId;
  project: string | null;
  title: string | null;
  started_at: string | null;
  updated_at: string | null;
  score: number;
  /** Its best steps, best first. */
  hits: SearchHit[];
}

/** How the question was read (with `explain`). */
export interface QueryReading {
  terms: string[];
  /** Related words searched as low-weight extras, each with the term it stands in for. */
  related: { word: string; for: string }[];
  date_span: { from: string; to: string; text: string } | null;
  role: 'user' | 'assistant' | null;
  names: string[];
  /** Projects the question names or is asked from, whose sessions get a prior. */
  projects: string[];
  /** Whether closeness in meaning counted (the store has vectors and the model ran). */
  meaning: boolean;
}

export interface SearchResult {
  query: string;
  took_ms: number;
  /** Best first; with `by: 'thread'`, the threads' hits in thread order. */
  hits: SearchHit[];
  /** With `by: 'thread'` only. */
  threads?: ThreadHit[];
  reading?: QueryReading;
}

export const MAX_LIMIT = 100;
/** Candidates asked of the index and ranked here. */
const CANDIDATES = 160;
/** Candidates read again within the span a question names (see searchTranscripts). */
const DATED_CANDIDATES = 40;
/** Steps read for the people a question names alone (their greetings), to see where they talk. */
const NAME_CANDIDATES = 60;
/** Steps read for being closest to the question in meaning (when its vector is asked for). */
const MEANING_CANDIDATES = 30;
/**
 * The nearest steps are found over every vector and filtered by the store, so this many are asked
 * for and the first MEANING_CANDIDATES that pass a filter (a project, a thread, a span, a space) kept.
 */
const MEANING_POOL = 300;
/** Steps shown per session with `by: 'thread'`. */
const STEPS_PER_THREAD = 3;

/** A question asking for a reason. */
const WHY = /\bwhy\b|\bhow come\b|\breasons?\b|\bwhat made\b|\bwhat caused\b/i;

const round = (x: number) => Math.round(x * 1000) / 1000;

/** Best first, at most `perThread` hits per thread, then backfilled if there are too few. */
function diversify(ranked: RankedStep[], n: number, perThread: number): RankedStep[] {
  const counts = new Map<string, number>();
  const picked: RankedStep[] = [];
  const rest: RankedStep[] = [];
  for (const r of ranked) {
    const c = counts.get(r.threadId) ?? 0;
    if (c < perThread && picked.length < n) {
      picked.push(r);
      counts.set(r.threadId, c + 1);
    } else rest.push(r);
    if (picked.length >= n) break;
  }
  if (picked.length < n) {
    picked.push(...rest.slice(0, n - picked.length));
    picked.sort((a, b) => b.score - a.score || b.rowid - a.rowid);
  }
  return picked;
}

/** The project whose steps speak to the named people most often (at least twice), if any. */
export function participantsProject(
  candidates: readonly Candidate[],
  names: readonly string[],
): string | null {
  if (names.length === 0) return null;
  const count = new Map<string, number>();
  for (const c of candidates)
    if (c.project && addresses(c.text, names)) count.set(c.project, (count.get(c.project) ?? 0) + 1);
  let best: string | null = null;
  let most = 1;
  for (const [p, k] of count) if (k > most) [best, most] = [p, k];
  return best;
}

/**
 * A search read and scored by its words, to be finished with the question's meaning or without.
 * Asking for the meaning costs an embedding (and, in a fresh process, loading the model), so the
 * caller asks only when it can change the answer.
 */
export interface PlannedSearch {
  /**
   * What the words leave unexplained (rank.ts `ScoredCandidates`): at 0 some candidate holds every
   * word of the question, and closeness in meaning cannot move a step.
   */
  unexplained: number;
  /**
   * The hits, with candidates close to the question in meaning (its vector and the steps' stored
   * ones, `tapedeck embed`) gaining a prior (rank.ts `addMeaning`). Absent: words alone. Call once.
   */
  finish(meaning?: QuestionMeaning | null): SearchResult;
}

/**
 * Search indexed transcripts. Dates named in the question boost steps and sessions in that span
 * and are not searched as words; "what did I/you…" and names give a role or speaker prior.
 */
export function planSearch(
  store: TranscriptStore,
  query: string,
  options: SearchOptions = {},
): PlannedSearch {
  const started = performance.now();
  const {
    limit = 10,
    snippetTokens = 24,
    now = Date.now(),
    by = 'step',
    explain = false,
    expand = true,
    cwd,
    ...filters
  } = options;
  const n = Math.max(1, Math.min(MAX_LIMIT, Math.floor(limit)));
  const date = findDateSpan(query, now);
  const role = roleCue(query);
  let words = date ? query.replace(date.text, ' ') : query;
  if (role.cueText) words = words.replace(role.cueText, ' ');
  let parsed = parseQuery(words);
  if (parsed.terms.length === 0) parsed = parseQuery(query);
  const want = by === 'thread' ? n * STEPS_PER_THREAD : n;
  const limitC = Math.max(CANDIDATES, want * 4);
  const { stats, candidates } = store.candidates(parsed, filters, limitC);
  // Each further read below adds only the steps no earlier read took.
  const seen = new Set(candidates.map((c) => c.rowid));
  const add = (more: readonly Candidate[]) => {
    for (const c of more)
      if (!seen.has(c.rowid)) {
        seen.add(c.rowid);
        candidates.push(c);
      }
  };
  const readAlso = (more: SearchFilters, limit: number) =>
    add(store.candidates(parsed, { ...filters, ...more }, limit).candidates);
  // People named in the question: the steps that name them alone show where each is spoken to
  // or speaks (rank.ts weighs the sessions by that; within one thread there is nothing to weigh).
  // Their conversation's other turns rarely repeat their names (only the greetings do), so the
  // first pass finds the words mostly in other people's sessions: read candidates again within
  // the project where they are spoken to most.
  const sightings =
    role.names.length > 0 && !filters.thread
      ? store.candidates(parseQuery(role.names.join(' ')), filters, NAME_CANDIDATES).candidates
      : [];
  const home =
    filters.project || filters.thread ? null : participantsProject([...candidates, ...sightings], role.names);
  if (home) readAlso({ project: home }, limitC);
  // A date in the question is a boost, not a filter, but it can only lift what was read: among
  // look-alike steps (a prompt repeated every day, a weekly report) the first read may hold only
  // other days' copies. Read a few candidates again within the span.
  if (date && !filters.since && !filters.until)
    readAlso(
      { since: new Date(date.from).toISOString(), until: new Date(date.to).toISOString() },
      DATED_CANDIDATES,
    );
  // The question's related words (search/expansion.ts): one more bounded read for the steps
  // that say the same thing in other words.
  const related = expand ? relatedTermsOf(parsed) : [];
  if (related.length > 0) {
    add(expandedCandidates(store, parsed, related, filters, stats.df, stats.total));
    parsed = { ...parsed, related };
  }
  // The projects the question names or is asked from (none within one project or thread).
  let projects: string[] = [];
  if (!filters.project && !filters.thread) {
    const known = store.projects(filters);
    projects = namedProjects(query, role.names, known);
    const here = cwd ? projectAt(cwd, known) : null;
    if (here && !projects.includes(here)) projects.push(here);
  }
  const why = WHY.test(query);
  const prose = isQuestion(query);
  const cues = { date, role, why, prose, sightings, home: home ?? filters.project ?? null, projects };
  const scored = scoreCandidates(candidates, parsed, stats, cues, now);
  return {
    unexplained: scored.unexplained,
    finish(meaning) {
      if (!meaning || scored.unexplained === 0) return present(scored.rank().steps, undefined);
      // The steps closest to the question in meaning join the candidates, scored like the rest:
      // an answer worded differently may hold none of the question's words. Not when no word of
      // the question is in the index (nonsense or a typo finds nothing, not the nearest steps),
      // nor with excluded words: the index applies those, and these steps were not found through it.
      let all = scored;
      if (parsed.excluded.length === 0 && stats.df.some((n) => n > 0)) {
        // The nearest that pass the filters, then those the words had not found already.
        const more = store
          .candidatesAmong(meaning.nearest(MEANING_POOL), filters, MEANING_CANDIDATES)
          .filter((c) => !seen.has(c.rowid));
        if (more.length > 0) {
          add(more);
          all = scoreCandidates(candidates, parsed, stats, cues, now);
        }
      }
      const cosines = new Map<number, number>();
      for (const [rowid, v] of meaning.vectors(candidates.map((c) => c.rowid)))
        cosines.set(rowid, cosine(meaning.query, v));
      return present(all.rank(cosines).steps, cosines);
    },
  };

  function present(steps: RankedStep[], cosines: Map<number, number> | undefined): SearchResult {
    const toHit = (c: RankedStep): SearchHit => ({
      thread: c.threadId,
      agent: c.agent,
      project: c.project,
      title: c.title,
      thread_started_at: c.threadStartedAt,
      thread_updated_at: c.threadUpdatedAt,
      step: c.step,
      role: c.role,
      kind: c.kind,
      timestamp: c.timestamp,
      snippet: squash(makeSnippet(c.text, parsed, snippetTokens, { why })),
      score: round(c.score),
      source: { path: c.source, line: c.line },
      ...(explain
        ? {
            explain: Object.fromEntries(
              Object.entries(c.parts).map(([k, v]) => [k, round(v)]),
            ) as SearchExplain,
          }
        : {}),
    });

    const result: SearchResult = { query, took_ms: 0, hits: [] };
    if (by === 'thread') {
      const threads = new Map<string, RankedStep[]>();
      for (const s of steps) {
        const list = threads.get(s.threadId);
        if (list) {
          if (list.length < STEPS_PER_THREAD) list.push(s);
        } else if (threads.size < n) threads.set(s.threadId, [s]);
      }
      result.threads = [...threads.values()].map((list) => {
        const top = list[0]!;
        const hits = list.map(toHit);
        result.hits.push(...hits);
        return {
          thread: top.threadId,
          agent: top.agent,
          project: top.project,
          title: top.title,
          started_at: top.threadStartedAt,
          updated_at: top.threadUpdatedAt,
          score: round(top.score),
          hits,
        };
      });
    } else {
      result.hits = diversify(steps, n, filters.thread ? n : WEIGHTS.perThread).map(toHit);
    }
    if (explain)
      result.reading = {
        terms: parsed.terms.map((t) => t.text),
        related: (parsed.related ?? []).map((r) => ({ word: r.text, for: parsed.terms[r.of]?.text ?? '' })),
        date_span: date
          ? { from: new Date(date.from).toISOString(), to: new Date(date.to).toISOString(), text: date.text }
          : null,
        role: role.role ?? null,
        names: role.names,
        projects,
        meaning: !!cosines?.size,
      };
    result.took_ms = Math.round((performance.now() - started) * 100) / 100;
    return result;
  }
}

/** A search by words alone (what `planSearch(...).finish()` gives). */
export function searchTranscripts(
  store: TranscriptStore,
  query: string,
  options: SearchOptions = {},
): SearchResult {
  return planSearch(store, query, options).finish();
}
