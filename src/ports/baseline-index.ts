/**
 * The plain full-text baselines `tapedeck eval --compare` measures the shipped search against:
 * a throwaway index of the same steps, queried with nothing but BM25. It lives outside the store
 * on purpose (always an FTS5 table in a temp SQLite file), so the baselines are identical
 * whichever backend holds the store.
 */

/** One step as the baselines index it. */
export interface BaselineDoc {
  thread: string;
  step: number;
  path: string;
  line: number;
  project: string | null;
  text: string;
}

export type BaselineMode = 'or' | 'and';

export interface BaselineHit {
  thread: string;
  step: number;
  source: { path: string; line: number };
}

export interface BaselineIndex {
  /** Add steps (call repeatedly; one transaction per call). */
  add(docs: readonly BaselineDoc[]): void;
  /**
   * Best `limit` steps by plain BM25 for `words` OR-ed or all required (`and`), optionally only
   * in threads whose project is `project` or below it. No words → no hits.
   */
  search(words: readonly string[], mode: BaselineMode, limit: number, project?: string): BaselineHit[];
  /** Close and delete the temp file. */
  close(): void;
}
