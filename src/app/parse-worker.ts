/**
 * Entry of Tapedeck's worker threads: the indexer's parse worker (started by spawn-parse-worker.ts;
 * the adapters, served), its archive worker (given an archive folder), or an embedding worker
 * (app/embedder.ts `createEmbedderPool`, given `embed`). One entry for all, so the bundled CLI
 * ships one worker file; each loads only its own modules (a thread's heap is RSS).
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { ArchiveWorkerData } from '../ingest/archive-worker.js';
import type { ParseWorkerData } from '../ingest/parse-worker.js';
import type { EmbedWorkerData } from './embedder.js';

const data = workerData as ParseWorkerData | ArchiveWorkerData | EmbedWorkerData;
if ('embed' in data) {
  const { serveEmbedWorker } = await import('./embedder.js');
  serveEmbedWorker(parentPort!);
} else if ('archiveDir' in data) {
  const { serveArchiveWorker } = await import('../ingest/archive-worker.js');
  const { createFileArchive } = await import('../storage/archive/file-archive.js');
  serveArchiveWorker(parentPort!, data, createFileArchive(data.archiveDir));
} else {
  const { serveParseWorker } = await import('../ingest/parse-worker.js');
  const { ADAPTERS } = await import('../sources/registry.js');
  serveParseWorker(parentPort!, data, ADAPTERS);
}
