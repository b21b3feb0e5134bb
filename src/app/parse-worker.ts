/**
 * Entry of the indexer's worker threads (started by spawn-parse-worker.ts): the parse worker (the
 * adapters, served), or, given an archive folder, the archive worker. One entry for both, so the
 * bundled CLI ships one worker file; each loads only its own modules (a thread's heap is RSS).
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { ArchiveWorkerData } from '../ingest/archive-worker.js';
import type { ParseWorkerData } from '../ingest/parse-worker.js';

const data = workerData as ParseWorkerData | ArchiveWorkerData;
if ('archiveDir' in data) {
  const { serveArchiveWorker } = await import('../ingest/archive-worker.js');
  const { createFileArchive } = await import('../storage/archive/file-archive.js');
  serveArchiveWorker(parentPort!, data, createFileArchive(data.archiveDir));
} else {
  const { serveParseWorker } = await import('../ingest/parse-worker.js');
  const { ADAPTERS } = await import('../sources/registry.js');
  serveParseWorker(parentPort!, data, ADAPTERS);
}
