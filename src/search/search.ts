/** Question or keywords in, ranked hits with snippets and provenance out. */
import { parseQuery } from '../core/query.js';
import { makeSnippet } from '../core/snippet.js';
import { createTermMatcher } from '../core/term-match.js';
import { squash } from '../core/text.js';
import type { AgentId, Role, StepKind } from '../core/types.js';
import type { SearchFilters, TranscriptStore } from '../ports/transcript-store.js';
import { idf, rankCandidates } from './rank.js';

export interface SearchOptions extends SearchFilters {
  limit?: number;
  /** Snippet length in FTS tokens (roughly words). */
  snippetTokens?: number;
  now?: number;
}

export interface SearchHit {
  thread: string;
  agent: AgentId;
  project: string | null;
  title: string | null;
  step: number;
  role: Role;
  kind: StepKind;
  timestamp: string | null;
  snippet: string;
  score: number;
  source: { path: string; line: number };
  /** Set (by the transcript service) when the hit's transcript was deleted or truncated. */
  source_gone?: { at: string; reason: 'deleted' | 'truncated' };
}

export interface SearchResult {
  query: string;
  took_ms: number;
  hits: SearchHit[];
}

export const MAX_LIMIT = 100;
/** Candidates re-ranked with every query word credited. */
const CANDIDATES = 200;
/** Hits from one thread before other threads get a turn (a session is often the answer, but
 * ten hits from it crowd out the others). */
const PER_THREAD = 3;

/** Best-first, at most `perThread` hits per thread, then backfilled if there are too few. */
function diversify<T extends { threadId: string }>(ranked: T[], n: number, perThread: number): T[] {
  const counts = new Map<string, number>();
  const picked: T[] = [];
  const rest: T[] = [];
  for (const r of ranked) {
    const c = counts.get(r.threadId) ?? 0;
    if (c < perThread && picked.length < n) {
      picked.push(r);
      counts.set(r.threadId, c + 1);
    } else rest.push(r);
  }
  if (picked.length < n) {
    picked.push(...rest.slice(0, n - picked.length));
    picked.sort((a, b) => ranked.indexOf(a) - ranked.indexOf(b));
  }
  return picked;
}

export function searchTranscripts(
  store: TranscriptStore,
  query: string,
  options: SearchOptions = {},
): SearchResult {
  const started = performance.now();
  const { limit = 10, snippetTokens = 24, now = Date.now(), ...filters } = options;
  const n = Math.max(1, Math.min(MAX_LIMIT, Math.floor(limit)));
  const parsed = parseQuery(query);
  const { candidates, dfs, total, inIndexRank } = store.candidates(
    parsed,
    filters,
    Math.max(CANDIDATES, n * 6),
  );
  const texts = store.stepTexts(candidates.map((c) => c.rowid));
  const match = createTermMatcher(parsed);
  const coverage = {
    matched: (c: { rowid: number }) => match(texts.get(c.rowid) ?? ''),
    weights: dfs.map((df) => (df > 0 ? idf(df, total) : 0)),
    inIndexRank,
  };
  const top = diversify(rankCandidates(candidates, now, coverage), n, filters.thread ? n : PER_THREAD);
  const hits = top.map((c) => ({
    thread: c.threadId,
    agent: c.agent,
    project: c.project,
    title: c.title,
    step: c.step,
    role: c.role,
    kind: c.kind,
    timestamp: c.timestamp,
    snippet: squash(makeSnippet(texts.get(c.rowid) ?? '', parsed, snippetTokens)),
    score: Math.round(c.score * 1000) / 1000,
    source: { path: c.source, line: c.line },
  }));
  return { query, took_ms: Math.round((performance.now() - started) * 100) / 100, hits };
}
