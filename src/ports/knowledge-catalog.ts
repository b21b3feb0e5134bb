/**
 * Read-only enumerations across the knowledge stores that their own ports do not offer: what the
 * fs tree lists as folders (labels, types, dates, agents) and what export must walk (every space,
 * removed wiki pages, idempotency records). Each domain store stays the only writer of its tables.
 */
import type { SavedRequest } from './saved-thread-store.js';

/** A folder of the tree with how many records it holds. */
export interface Bucket {
  key: string;
  n: number;
}

/** Date granularity of a bucket key: 4 = `YYYY`, 7 = `YYYY-MM`, 10 = `YYYY-MM-DD`. */
export type DateGranularity = 4 | 7 | 10;

export interface KnowledgeCatalog {
  /** Every space holding a memory, skill, wiki page, saved thread or space-scoped rule, by name. */
  spaces(): string[];
  /** Labels of a space's active memories, by label. */
  memoryLabels(space: string): Bucket[];
  /** Unit types of a space's active memories, by type. */
  memoryTypes(space: string): Bucket[];
  /**
   * Dates of a space's active memories (the event start, else when it was recorded; UTC) cut to
   * `granularity`, only those starting with `within` ('' for all), by date.
   */
  memoryDates(space: string, within: string, granularity: DateGranularity): Bucket[];
  /** Ids of a space's active memories dated `day` (YYYY-MM-DD), newest first. */
  memoriesOn(space: string, day: string, limit: number, offset: number): string[];
  /** Agents of every thread (indexed and saved), by agent. */
  threadAgents(): Bucket[];
  /** Ids of an agent's threads, most recently updated first. */
  threadsOf(agent: string, limit: number, offset: number): string[];
  /** Start dates of threads (UTC) cut to `granularity`, under `within`, by date. */
  threadDates(within: string, granularity: DateGranularity): Bucket[];
  /** Ids of the threads started on `day`, most recently updated first. */
  threadsOn(day: string, limit: number, offset: number): string[];
  /** Paths of a space's wiki pages, removed ones included, by path. */
  wikiPaths(space: string): { path: string; removed: boolean }[];
  /** Idempotency records of a saved thread, oldest first. */
  savedRequests(threadId: string): SavedRequest[];
  /** Ids of saved threads in these spaces (null: all), by id. */
  savedThreadIds(spaces: string[] | null): string[];
  /** Days (YYYY-MM-DD) with a stored working-memory briefing or edit in a space, newest first. */
  workingMemoryDays(space: string): string[];
  /** A person's edits of working-memory sections in a space, by day and section. */
  workingMemoryEdits(space: string): WorkingMemoryEdit[];
}

export interface WorkingMemoryEdit {
  space: string;
  /** YYYY-MM-DD (UTC). */
  day: string;
  section: string;
  edit: string;
  editedAt: string;
}
