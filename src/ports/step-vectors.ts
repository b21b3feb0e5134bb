/**
 * Meaning vectors of steps (a sentence-embedding model's, quantised to int8): written by
 * `tapedeck embed`, read by search to re-rank its candidates by meaning. A vector belongs to one
 * step's text: it goes when the step goes or its text changes (the schema sees to it).
 */

/** A step's text waiting for its vector. */
export interface UnembeddedStep {
  rowid: number;
  text: string;
}

export interface StepVectorStore {
  /** The stored vectors of these steps for `model` (steps without one are absent). */
  vectors(rowids: readonly number[], model: string): Map<number, Int8Array>;
  /**
   * The steps whose vectors for `model` are closest to `query` (cosine), at most `limit`, closest
   * first: every vector is compared (a process keeps them in memory, reading them again after
   * its own writes and at most a minute after another's).
   */
  nearest(query: Float32Array, model: string, limit: number): number[];
  /** Whether any step has a vector for `model` (cheap: what every search asks first). */
  any(model: string): boolean;
  /** How many steps worth a vector have one for `model`, and how many there are. */
  count(model: string): { embedded: number; total: number };
  /** Steps worth a vector (prompts, responses, summaries) without one for `model`, newest first. */
  unembedded(model: string, limit: number): UnembeddedStep[];
  /** Store vectors (one transaction); a step deleted meanwhile is skipped. */
  put(model: string, rows: readonly { rowid: number; vector: Int8Array }[]): number;
}
