import type { ParsedQuery } from '../core/query.js';
import type { AgentId, ParseIssue, Role, Step, StepKind, ThreadMeta } from '../core/types.js';

/** Where ingest stopped in one transcript file. */
export interface FileCursor {
  path: string;
  agent: AgentId;
  threadId: string | null;
  size: number;
  mtimeMs: number;
  inode: number;
  /** Byte offset just after the last complete line consumed. */
  offset: number;
  /** Number of lines consumed (the next line is lineNo + 1). */
  lineNo: number;
  /** Hash of the file's first bytes, to tell growth from a rewrite. */
  headHash: string;
  /** Parser state at `offset`, serialized as JSON (parsed only when the file is resumed). */
  state: string | null;
}

/** A step ready for storage: capped, redacted, with identifier terms and a content hash. */
export interface PreparedStep extends Step {
  idents: string;
  /** Neighbour field: the heads of the previous and next turns (core/neighbours.ts), or ''. */
  context: string;
  /** Hash of the text and the neighbour field (core/neighbours.ts stepHash). */
  hash: number;
}

/** A turn already stored, as the neighbour linking at index time needs it. */
export interface StoredTurn {
  /** Its order key in the thread (Step.seq). */
  seq: number;
  text: string;
  context: string;
}
/** How a thread's transcript went away: deleted (or no longer located), or cut below what was indexed. */
export type SourceGoneReason = 'deleted' | 'truncated';

export interface ThreadRecord extends ThreadMeta {
  stepCount: number;
  space: string;
  /**
   * Set when the transcript went away: the thread keeps every indexed step (still searchable and
   * showable) and says since when and how. Absent while the source is whole.
   */
  sourceGone?: { at: string; reason: SourceGoneReason };
}

export interface StepRecord extends Step {
  threadId: string;
}

export interface SearchFilters {
  agents?: AgentId[];
  /** Matches a thread whose project is this directory or below it. */
  project?: string;
  /** ISO bounds on the step time, inclusive. */
  since?: string;
  until?: string;
  roles?: Role[];
  thread?: string;
  /** Only threads in these spaces (a space-limited caller); filtered in the query, none matches nothing. */
  spaces?: readonly string[];
}

/**
 * Corpus statistics for the query's terms, as BM25 needs them. Exact for rare terms; a term
 * matching more steps than the backend counts reports at least its cap (its weight is small).
 */
export interface TermStatistics {
  /** Steps indexed (roughly: the highest step row id). */
  total: number;
  /** Average characters of a step's text. */
  avgChars: number;
  /** Steps each query term matches, aligned with the query's terms. */
  df: number[];
}

/**
 * A step the index found for a query, with what ranking reads: its text (the first
 * CANDIDATE_TEXT_CHARS characters), its neighbour field, where it sits and when it was said.
 * No score: the index only finds and orders candidates; search/ ranks them.
 */
export interface Candidate {
  rowid: number;
  threadId: string;
  agent: AgentId;
  project: string | null;
  title: string | null;
  /** The thread's first and last step times, when known. */
  threadStartedAt: string | null;
  threadUpdatedAt: string | null;
  source: string;
  step: number;
  role: Role;
  kind: StepKind;
  timestamp: string | null;
  line: number;
  text: string;
  /** Characters of the whole stored text (text may be a prefix of it). */
  chars: number;
  context: string;
}

/** Characters of a candidate's text handed to ranking and snippets. */
export const CANDIDATE_TEXT_CHARS = 4000;

/** What the index found for a query. */
export interface CandidateSet {
  stats: TermStatistics;
  /**
   * Bounded (at most the limit asked for, plus a few probes): the steps holding the query's
   * rarer terms in the text or the neighbour field, best impact first, then recent steps
   * holding all (or most) of its terms.
   */
  candidates: Candidate[];
}

export interface StoreStats {
  threads: number;
  steps: number;
  files: number;
  issues: number;
  perAgent: Record<string, { threads: number; steps: number; files: number; lastUpdated: string | null }>;
  dbBytes: number;
  path: string;
  /** Which backend holds the store. */
  backend: 'sqlite' | 'postgres';
}

export interface IssueRecord extends ParseIssue {
  at: string;
}

/** Writes made inside one transaction. */
export interface TranscriptWriter {
  /** Create or update a thread (title kept once set; started_at min, updated_at max). */
  upsertThread(meta: ThreadMeta): void;
  /**
   * Insert or replace a step, identified by its internal order (`seqOf`); unchanged content is a
   * no-op. `likelyNew` (a file read from its start) skips the lookup and inserts straight away,
   * falling back to replace on a conflict.
   */
  upsertStep(threadId: string, step: PreparedStep, likelyNew?: boolean): 'inserted' | 'updated' | 'unchanged';
  /** Delete steps whose internal order (`seqOf`) is >= from. */
  truncateSteps(threadId: string, from: number): void;
  /** Delete the steps of a thread whose internal orders (`seqOf`) are not in `keep`. */
  retainSteps(threadId: string, keep: ReadonlySet<number>): void;
  refreshThreadCounts(threadId: string): void;
  saveCursor(cursor: FileCursor): void;
  /**
   * The file went away (`deleted`: its cursor and issues are dropped) or was cut below what was
   * indexed (`truncated`): its threads keep their steps and are marked with `at` (the first time).
   * Indexing the file again clears a `deleted` mark.
   */
  markSourceGone(path: string, reason: SourceGoneReason, at: string): void;
  /**
   * Delete a thread and its steps (`tapedeck forget`, never a side effect of a file going). The
   * file's cursor stays, so an unchanged transcript is not read back in; false when no such thread.
   */
  forgetThread(threadId: string): boolean;
  addIssues(path: string, issues: ParseIssue[]): void;
  clearIssues(path: string): void;
  /**
   * The turns (core/neighbours.ts isTurn) stored nearest before order key `before` and after
   * `after` (Step.seq) of a thread, for linking a batch's first and last turns to their stored
   * neighbours.
   */
  storedTurns(threadId: string, before: number, after: number): { previous?: StoredTurn; next?: StoredTurn };
  /** Replace a stored step's (by Step.seq) neighbour field and content hash (its index entry follows). */
  setContext(threadId: string, seq: number, context: string, hash: number): void;
}

/** Storage for indexed transcripts. One implementation per backend. */
export interface TranscriptStore {
  readonly path: string;
  /** Which backend holds the store. */
  readonly backend: 'sqlite' | 'postgres';
  /** Every file cursor, without parser state (the cheap pass reads only these). */
  listCursors(): Omit<FileCursor, 'state'>[];
  /**
   * A number that changes whenever another connection commits to the store (not for this
   * connection's own writes), so a caller can keep what it read until someone else writes.
   */
  externalChanges(): number;
  /** The saved parser state of one file. */
  cursorState(path: string): string | null;
  /** Owner (source path) of a thread id, if the thread exists. */
  threadSource(threadId: string): string | undefined;
  /** Run `fn` in one transaction; retried on a busy database, never half-applied. */
  write<T>(fn: (w: TranscriptWriter) => T): T;
  /**
   * A long run of writes starts (a first index, `--full`): until `endBulkWrites`, the store may
   * trade work that only keeps reads fast for write throughput and memory (SQLite: full-text
   * merges deferred, the file not memory-mapped). Each `write` stays one whole transaction, so a
   * crash in between loses nothing. Absent: nothing to defer (PostgreSQL).
   */
  beginBulkWrites?(): void;
  /** The run is over; `settle` (it finished): do the deferred work now. */
  endBulkWrites?(settle: boolean): void;
  /**
   * Term statistics and candidate steps for a parsed query under filters: at most about
   * `limit` steps (see CandidateSet), with their texts, so search needs no second read. A limit
   * of 0 asks for the term statistics alone: no step is read.
   */
  candidates(query: ParsedQuery, filters: SearchFilters, limit: number): CandidateSet;
  /**
   * These steps as candidates: the first `limit` in `rowids`' order that the filters let through,
   * in that order (unknown ids are skipped). Steps found by something other than their words
   * (closeness in meaning), so a filter narrower than the list still gets its `limit`.
   */
  candidatesAmong(rowids: readonly number[], filters: SearchFilters, limit: number): Candidate[];
  getThread(threadId: string): ThreadRecord | undefined;
  /**
   * Steps `from`..`to` (inclusive step numbers) of a thread, in order, at most `limit` rows — but
   * never half of a step: the parts that share the last row's step number come too.
   */
  getSteps(threadId: string, from: number, to: number, limit: number): StepRecord[];
  /**
   * A thread's steps around `step`, in order, counted in step numbers (every part of a step comes
   * with it): the `before` step numbers below `step`, then the first number >= step and `after`
   * more.
   */
  stepWindow(threadId: string, step: number, before: number, after: number): StepRecord[];
  listThreads(filters: SearchFilters, limit: number, offset: number): ThreadRecord[];
  /**
   * The projects (directories) of the threads under the filters' agents and spaces, each once,
   * in no particular order: what a question may name ("in tidewatch", search/projects.ts).
   */
  projects(filters: SearchFilters): string[];
  stats(): StoreStats;
  listIssues(limit: number): IssueRecord[];
  integrityCheck(): string[];
  close(): void;
}
