/**
 * Entry of the indexer's worker threads (started by spawn-parse-worker.ts): the parse worker (the
 * adapters, served), or, given an archive folder, the archive worker. One entry for both, so the
 * bundled CLI ships one worker file.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { type ArchiveWorkerData, serveArchiveWorker } from '../ingest/archive-worker.js';
import { type ParseWorkerData, serveParseWorker } from '../ingest/parse-worker.js';
import { ADAPTERS } from '../sources/registry.js';
import { createFileArchive } from '../storage/archive/file-archive.js';

const data = workerData as ParseWorkerData | ArchiveWorkerData;
if ('archiveDir' in data) serveArchiveWorker(parentPort!, data, createFileArchive(data.archiveDir));
else serveParseWorker(parentPort!, data, ADAPTERS);
