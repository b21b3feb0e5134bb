/**
 * Starting the parse worker (app/parse-worker.ts) beside this module: in dist/ (tsc) and in the
 * bundled CLI, where scripts/bundle.mjs puts the worker next to the chunk holding this code.
 * Running from the TypeScript sources (tests under tsx) there is no worker: a worker cannot load
 * TypeScript while the main thread blocks waiting for it (tsx's loader needs the main thread), so
 * indexing runs inline there; test/parse-worker.test.ts checks the worker through the built CLI.
 */
import { createRequire } from 'node:module';
import type { SpawnParseWorker } from '../ingest/parse-offload.js';

type Threads = typeof import('node:worker_threads');

/** Starts either worker (the data says which: ingest/parse-offload.ts). */
export const spawnParseWorker: SpawnParseWorker | undefined = import.meta.url.endsWith('.ts')
  ? undefined
  : (data, transfer) => {
      // Required here, not imported: a command that never indexes much should not load it.
      const { Worker } = createRequire(import.meta.url)('node:worker_threads') as Threads;
      // A small young generation: the worker's garbage is short-lived strings, and a first index of
      // 1M steps has two heaps to keep under 300 MB of RSS.
      return new Worker(new URL('./parse-worker.js', import.meta.url), {
        workerData: data,
        transferList: transfer,
        resourceLimits: { maxYoungGenerationSizeMb: 16 },
      });
    };
