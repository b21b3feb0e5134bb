/** Entry of the parse worker thread (started by spawn-parse-worker.ts): the adapters, served. */
import { parentPort, workerData } from 'node:worker_threads';
import { serveParseWorker } from '../ingest/parse-worker.js';
import { ADAPTERS } from '../sources/registry.js';

serveParseWorker(parentPort!, workerData, ADAPTERS);
