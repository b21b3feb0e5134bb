import type { Memory, MemoryStatus, UnitType } from '../core/memory.js';
import type { ParsedQuery } from '../core/query.js';

/** Which memories a search or listing may return. Every field narrows; all must hold. */
export interface MemoryFilter {
  /** The spaces to look in; null means every space (an explicit `--all-spaces`). */
  spaces: string[] | null;
  /** Any of these unit types. */
  types?: UnitType[];
  /** Every one of these labels (normalized). */
  labels?: string[];
  /** A memory whose project is this directory or below it. */
  project?: string;
  /** ISO bounds on when it happened: the event range, or the record time when it has none. */
  since?: string;
  until?: string;
  /** What was valid at this ISO time (valid_from ≤ t < valid_to), forgotten ones excepted. */
  asOf?: string;
  /** Lifecycle states to include when `asOf` is not set (default: active only). */
  statuses?: MemoryStatus[];
}

/** One full-text match before ranking (light: the row is loaded only for the hits kept). */
export interface MemoryCandidate {
  id: string;
  /** Text relevance, higher is better: bm25 when the query has distinctive terms (see the store). */
  bm25: number;
  /** Matched every query term. */
  strict: boolean;
  importance: number;
  updated_at: string;
}

/** Reads and writes made inside one IMMEDIATE transaction (dedup checks see every committed add). */
export interface MemoryWriter {
  get(id: string): Memory | undefined;
  /** Store a new memory (its full-text row and labels with it). */
  insert(memory: Memory): void;
  /** Replace a stored memory's fields (by id) and re-index it. */
  update(memory: Memory): void;
  /** Delete a memory for good. */
  remove(id: string): void;
  /** Active memories in this space and project (null = none) whose normalized-text hash is `hash`. */
  withHash(space: string, project: string | null, hash: string): Memory[];
  /**
   * Active memories in this space and project that may be near-duplicates of `content` (they
   * share a locality-sensitive band key), at most `limit`: a bounded candidate set to check.
   */
  similar(space: string, project: string | null, content: string, limit: number): Memory[];
  /** Memories whose `superseded_by` is `id`. */
  predecessors(id: string): Memory[];
}

/** Storage for memories. One implementation per backend. */
export interface MemoryStore {
  /** Run `fn` in one transaction that takes the write lock first; never half-applied. */
  write<T>(fn: (w: MemoryWriter) => T): T;
  get(id: string): Memory | undefined;
  /** Several memories by id, in the order given (missing ids skipped). */
  getMany(ids: string[]): Memory[];
  /** Ids starting with `prefix` (for short ids typed by people), at most `limit`. */
  idsWithPrefix(prefix: string, limit: number): string[];
  /** Ids of the memories this one superseded. */
  supersedes(id: string): string[];
  /**
   * Full-text candidates for a parsed query under a filter. The work is bounded whatever the store
   * size: about `pool` candidates per tier, or every match of the query's distinctive terms.
   */
  candidates(query: ParsedQuery, filter: MemoryFilter, pool: number): MemoryCandidate[];
  /** Memories under a filter, most recently updated first. */
  list(filter: MemoryFilter, limit: number, offset: number): Memory[];
}
