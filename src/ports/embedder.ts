/**
 * A sentence-embedding model that runs in process (no server, no network): texts in, unit-scale
 * vectors out. Loading it is slow (a few hundred milliseconds), so an adapter loads it on the
 * first call.
 */
export interface Embedder {
  /** Names the model and its settings; vectors of different models are never compared. */
  readonly model: string;
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}
