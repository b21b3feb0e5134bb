/**
 * Use cases over indexed transcripts: index, search, show (a window or a page of a thread),
 * list threads, stats and doctor. Every interface (CLI, MCP, HTTP) calls these.
 */
import { parseDateBound } from '../core/dates.js';
import { invalidInput, notFound } from '../core/errors.js';
import type { Reanchor } from '../core/reanchor.js';
import { capText } from '../core/text.js';
import { type AgentId, isAgentId, type Role } from '../core/types.js';
import type { Indexer, IndexRunOptions, IndexSummary } from '../ingest/indexer.js';
import type { TranscriptArchive } from '../ports/archive.js';
import type {
  IssueRecord,
  SearchFilters,
  StepRecord,
  StoreStats,
  ThreadRecord,
  TranscriptStore,
} from '../ports/transcript-store.js';
import { planSearch, type QuestionMeaning, type SearchResult } from '../search/search.js';
import { type ReanchorInput, reanchorThread } from './reanchor.js';
import { buildTimeline, type Timeline } from './timeline.js';

export interface FilterInput {
  agent?: string | string[];
  project?: string;
  since?: string;
  until?: string;
  role?: string | string[];
  thread?: string;
}

export interface ShowInput {
  thread: string;
  step?: number;
  /** Steps on each side of `step`. */
  window?: number;
  /** Paging through the whole thread when no step is given. */
  from?: number;
  limit?: number;
  /** Per-step text cap in characters. */
  maxChars?: number;
}

export interface ShowResult {
  thread: ThreadRecord;
  steps: StepRecord[];
  /** Next `from` for paging, or null at the end. */
  next: number | null;
}

const ROLES: readonly Role[] = ['user', 'assistant', 'tool', 'system'];

const list = (v: string | string[] | undefined) =>
  (Array.isArray(v) ? v : v ? [v] : [])
    .flatMap((x) => x.split(','))
    .map((x) => x.trim())
    .filter(Boolean);

export function toFilters(input: FilterInput, now = Date.now()): SearchFilters {
  const agents = list(input.agent);
  for (const a of agents)
    if (!isAgentId(a))
      throw invalidInput(`Unknown agent "${a}"; known: antigravity, claude-code, codex, gemini-cli`);
  const roles = list(input.role);
  for (const r of roles)
    if (!ROLES.includes(r as Role)) throw invalidInput(`Unknown role "${r}"; known: ${ROLES.join(', ')}`);
  const filters: SearchFilters = {};
  if (agents.length) filters.agents = agents as AgentId[];
  if (roles.length) filters.roles = roles as Role[];
  if (input.project) filters.project = input.project;
  if (input.thread) filters.thread = input.thread;
  if (input.since) filters.since = parseDateBound(input.since, { now });
  if (input.until) filters.until = parseDateBound(input.until, { now, end: true });
  return filters;
}

/** The moment a question was asked, from an ISO time, a YYYY-MM-DD day (its end) or epoch ms. */
function askedAt(v: string | number): number {
  const t =
    typeof v === 'number'
      ? v
      : Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(v.trim()) ? `${v.trim()}T23:59:59Z` : v);
  if (!Number.isFinite(t)) throw invalidInput(`Cannot read the date "${v}": use YYYY-MM-DD or an ISO time`);
  return t;
}

export interface IndexInput extends Omit<IndexRunOptions, 'agents'> {
  agents?: string[];
}

/** Search options beside the filters. */
export interface SearchInput extends FilterInput {
  limit?: number;
  /** `thread`: the best sessions, each with its best steps. */
  by?: 'step' | 'thread';
  /** Add each hit's score components and how the question was read. */
  explain?: boolean;
  /** The date the question is asked on (ISO or YYYY-MM-DD; default now): resolves "last week". */
  now?: string | number;
  /** false: search the words as typed, without their related words (eval's `--no-expand`). */
  expand?: boolean;
  /**
   * The folder the question is asked from (the CLI's and the MCP server's working folder): its
   * project's sessions get a prior, never a filter. Absent: none.
   */
  cwd?: string;
  /**
   * false: words alone. Otherwise, where steps have vectors (`tapedeck embed`) and the words leave
   * part of the question unexplained, candidates close to it in meaning gain a prior.
   */
  meaning?: boolean;
}

export interface TranscriptService {
  /** Bring the index up to date (incremental unless `full`). */
  index(options?: IndexInput): IndexSummary;
  search(query: string, input?: SearchInput): Promise<SearchResult>;
  show(input: ShowInput): ShowResult;
  threads(filters?: FilterInput & { limit?: number; offset?: number }): ThreadRecord[];
  resolveThreadId(id: string): string;
  /** Sessions per day (in the zone `utcOffsetMinutes` east of UTC) under the filters, for the activity chart. */
  timeline(filters?: FilterInput & { utcOffsetMinutes?: number }): Timeline;
  /**
   * Delete an indexed thread, its steps and its archived transcript (the explicit act behind
   * `tapedeck forget`; a file going away never does this). NOT_FOUND for an unknown thread.
   */
  forget(threadId: string): ThreadRecord;
  /** What a compaction dropped from a session's context, rebuilt within a token budget. */
  reanchor(input?: ReanchorInput): Reanchor;
  /** Database checks and the most recent parse issues (for `tapedeck doctor`). */
  health(issueLimit?: number): { problems: string[]; issues: IssueRecord[]; stats: StoreStats };
}

export function createTranscriptService(
  store: TranscriptStore,
  indexer: Indexer,
  archive?: TranscriptArchive,
  /** The question's meaning (MeaningService.of); absent: search by words alone. */
  meaningOf?: (query: string) => Promise<QuestionMeaning | null>,
): TranscriptService {
  function resolveThreadId(id: string): string {
    if (store.getThread(id)) return id;
    throw notFound(`No thread "${id}"; list threads with \`tapedeck threads\``);
  }

  return {
    index: ({ agents, ...rest } = {}) =>
      indexer.run({ ...rest, agents: toFilters({ agent: agents }).agents }),
    async search(query, input = {}) {
      if (typeof query !== 'string' || query.trim() === '') throw invalidInput('The query is empty');
      if (query.length > 2000) throw invalidInput('The query is over 2,000 characters');
      const limit = input.limit ?? 10;
      if (!Number.isFinite(limit) || limit < 1) throw invalidInput('limit must be a positive number');
      const { by, explain, now: asked, expand, cwd, meaning, ...filterInput } = input;
      if (by !== undefined && by !== 'step' && by !== 'thread')
        throw invalidInput(`by must be "step" or "thread", not "${String(by)}"`);
      const now = asked === undefined ? Date.now() : askedAt(asked);
      const planned = planSearch(store, query, {
        ...toFilters(filterInput, now),
        limit,
        by,
        explain: explain === true,
        now,
        expand: expand !== false,
        ...(cwd ? { cwd } : {}),
      });
      // The question is embedded only when its meaning can change the order.
      const vector =
        meaning !== false && meaningOf && planned.unexplained > 0 ? await meaningOf(query) : null;
      return markGoneSources(store, planned.finish(vector));
    },
    show({ thread, step, window = 3, from = 0, limit = 50, maxChars = 4000 }) {
      const id = resolveThreadId(thread);
      const record = store.getThread(id)!;
      // What callers see: the step number only, never the finer internal order (`seq`).
      const out = ({ seq: _seq, ...s }: StepRecord): StepRecord => ({
        ...s,
        text: capText(s.text, maxChars),
      });
      if (step !== undefined) {
        if (!Number.isInteger(step)) throw invalidInput('step must be an integer');
        const w = Math.max(0, Math.min(50, window));
        // `w` step numbers on each side, each with all its parts (an Antigravity step can be
        // several rows: reasoning, text, tool calls).
        const steps = store.stepWindow(id, step, w, w);
        if (!steps.some((s) => s.step >= step)) throw notFound(`Thread ${id} has no step ${step}`);
        return { thread: record, steps: steps.map(out), next: null };
      }
      const n = Math.max(1, Math.min(500, limit));
      // Pages end on a whole step (getSteps never splits one), so `next` is simply the next number.
      const steps = store.getSteps(id, from, Number.MAX_SAFE_INTEGER, n);
      const last = steps.at(-1);
      const next = last
        ? (store.getSteps(id, last.step + 1, Number.MAX_SAFE_INTEGER, 1)[0]?.step ?? null)
        : null;
      return { thread: record, steps: steps.map(out), next };
    },
    threads(input = {}) {
      const { limit = 20, offset = 0, ...rest } = input;
      return store.listThreads(toFilters(rest), Math.max(1, Math.min(1000, limit)), Math.max(0, offset));
    },
    resolveThreadId,
    timeline({ utcOffsetMinutes = 0, ...rest } = {}) {
      if (!Number.isInteger(utcOffsetMinutes) || Math.abs(utcOffsetMinutes) > 14 * 60)
        throw invalidInput('utc_offset must be whole minutes between -840 and 840');
      return buildTimeline(store, toFilters(rest), utcOffsetMinutes);
    },
    forget(threadId) {
      const id = resolveThreadId(threadId);
      const record = store.getThread(id)!;
      store.write((w) => w.forgetThread(id));
      // Its raw copy goes too (forgetting means Tapedeck keeps nothing of it).
      archive?.remove(record.source);
      return record;
    },
    reanchor: (input) => reanchorThread(store, input),
    health(issueLimit = 50) {
      return { problems: store.integrityCheck(), issues: store.listIssues(issueLimit), stats: store.stats() };
    },
  };
}

/** Hits whose transcript went away say so (`source_gone`): the step is history, not on disk. */
function markGoneSources(store: TranscriptStore, result: SearchResult): SearchResult {
  const gone = new Map<string, ThreadRecord['sourceGone']>();
  for (const h of result.hits) {
    if (!gone.has(h.thread)) gone.set(h.thread, store.getThread(h.thread)?.sourceGone);
    const g = gone.get(h.thread);
    if (g) h.source_gone = g;
  }
  return result;
}

export type { IndexSummary } from '../ingest/indexer.js';
export type { StepRecord, StoreStats, ThreadRecord } from '../ports/transcript-store.js';
export type { SearchHit, SearchResult, ThreadHit } from '../search/search.js';
export type { Timeline, TimelineDay } from './timeline.js';
