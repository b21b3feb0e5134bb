/**
 * Closeness in meaning, on top of the words: `embed` gives steps (prompts, responses, summaries;
 * newest first, resumable, a batch committed at a time) a vector from the local embedding model,
 * and `of` turns a question into what search needs to credit candidates close to it in meaning.
 * Nothing changes for a store without vectors: `of` is null and search ranks by words alone.
 */
import { TapedeckError } from '../core/errors.js';
import { quantize } from '../core/vectors.js';
import type { Embedder } from '../ports/embedder.js';
import type { StepVectorStore } from '../ports/step-vectors.js';
import type { QuestionMeaning } from '../search/search.js';

export interface EmbedProgress {
  /** Steps with a vector, of `total`. */
  embedded: number;
  total: number;
  /** Steps embedded per second in this run. */
  rate: number;
}

export interface EmbedSummary {
  model: string;
  /** Vectors written by this run. */
  added: number;
  embedded: number;
  total: number;
  seconds: number;
}

export interface EmbedOptions {
  /** Embed at most this many steps (default: all that lack a vector). */
  limit?: number;
  onProgress?: (p: EmbedProgress) => void;
}

export interface MeaningService {
  /** The model, and how many steps worth a vector have one. */
  status(): { model: string; embedded: number; total: number };
  embed(options?: EmbedOptions): Promise<EmbedSummary>;
  /** The question's meaning for search, or null when no step has a vector (or the model cannot run). */
  of(query: string): Promise<QuestionMeaning | null>;
}

/** Steps read and embedded per round: one transaction each, so an interrupted run keeps its work. */
const BATCH = 64;
/** How long "no vectors yet" is believed before the store is asked again. */
const NONE_TTL_MS = 30_000;

export function createMeaningService(
  vectors: StepVectorStore,
  embedder: Embedder,
  warn: (message: string) => void = (m) => process.stderr.write(`tapedeck: ${m}\n`),
): MeaningService {
  const model = embedder.model;
  let known: { any: boolean; at: number } | undefined;
  let broken = false;
  const hasVectors = () => {
    if (known?.any || (known && Date.now() - known.at < NONE_TTL_MS)) return known.any;
    known = { any: vectors.any(model), at: Date.now() };
    return known.any;
  };
  return {
    status: () => ({ model, ...vectors.count(model) }),
    async embed({ limit = Number.POSITIVE_INFINITY, onProgress } = {}) {
      if (!(limit >= 0)) throw new TapedeckError('INVALID_INPUT', 'limit must be 0 or more');
      const started = performance.now();
      let added = 0;
      let { embedded, total } = vectors.count(model);
      while (added < limit) {
        const todo = vectors.unembedded(model, Math.min(BATCH, limit - added));
        if (todo.length === 0) break;
        let out: Float32Array[];
        try {
          out = await embedder.embed(todo.map((t) => t.text));
        } catch (e) {
          throw new TapedeckError(
            'UNSUPPORTED',
            `The embedding model could not run: ${(e as Error).message}`,
          );
        }
        const written = vectors.put(
          model,
          todo.map((t, i) => ({ rowid: t.rowid, vector: quantize(out[i]!) })),
        );
        added += todo.length;
        embedded += written;
        known = { any: embedded > 0, at: Date.now() };
        onProgress?.({ embedded, total, rate: added / ((performance.now() - started) / 1000) });
        // Every step of the batch was deleted meanwhile: the next read moves on without them.
        if (written === 0) total = vectors.count(model).total;
      }
      ({ embedded, total } = vectors.count(model));
      return { model, added, embedded, total, seconds: (performance.now() - started) / 1000 };
    },
    async of(query) {
      if (broken || !hasVectors()) return null;
      try {
        const [q] = await embedder.embed([query]);
        return {
          query: q!,
          vectors: (rowids) => vectors.vectors(rowids, model),
          nearest: (limit) => vectors.nearest(q!, model, limit),
        };
      } catch (e) {
        broken = true;
        warn(`searching by words alone: the embedding model could not run (${(e as Error).message})`);
        return null;
      }
    },
  };
}
