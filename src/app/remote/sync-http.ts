/**
 * Synchronous HTTP for client mode. The services' interfaces are synchronous (the embedded store
 * is), so a worker thread does the `fetch` (keeping the connection alive between calls) while
 * the caller blocks on a shared flag — as the PostgreSQL client does. One worker per process.
 */
import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';
import { awaitReply } from '../../storage/postgres/sync-client.js';

export interface HttpReply {
  status: number;
  body: string;
}

/** Thrown when no HTTP answer came at all (refused, reset, timed out). */
export class TransportError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = 'TransportError';
  }
}

const WORKER = `
const { workerData } = require('node:worker_threads');
const { port, flag, timeoutMs } = workerData;
port.on('message', async (req) => {
  let reply;
  try {
    const r = await fetch(req.url, {
      method: req.method,
      headers: req.headers,
      body: req.body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    reply = { ok: true, status: r.status, body: await r.text() };
  } catch (e) {
    const cause = (e && e.cause) || e || {};
    reply = { ok: false, code: cause.code || (e && e.name) || 'ERROR', message: cause.message || String(e) };
  }
  port.postMessage(reply);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});
`;

export interface SyncHttp {
  request(method: string, url: string, headers: Record<string, string>, body?: string): HttpReply;
  close(): void;
}

export function createSyncHttp(timeoutMs = 30_000): SyncHttp {
  const flag = new Int32Array(new SharedArrayBuffer(4));
  let worker: Worker | undefined;
  let port: MessagePort | undefined;
  const start = () => {
    const ch = new MessageChannel();
    worker = new Worker(WORKER, {
      eval: true,
      execArgv: [],
      workerData: { port: ch.port2, flag, timeoutMs },
      transferList: [ch.port2],
    });
    worker.unref();
    worker.on('error', () => {});
    port = ch.port1;
    port.unref();
  };
  return {
    request(method, url, headers, body) {
      if (!worker) start();
      Atomics.store(flag, 0, 0);
      port!.postMessage({ method, url, headers, body });
      const got = awaitReply(flag, port!, timeoutMs + 5_000) as
        | { ok: true; status: number; body: string }
        | { ok: false; code: string; message: string }
        | undefined;
      if (!got) {
        // Start over with a new worker, so a late answer is never taken for the next request's.
        void worker?.terminate();
        worker = undefined;
        throw new TransportError(`no answer from ${url} in ${timeoutMs} ms`, 'ETIMEDOUT');
      }
      if (!got.ok) throw new TransportError(got.message, got.code);
      return { status: got.status, body: got.body };
    },
    close() {
      void worker?.terminate();
      worker = undefined;
    },
  };
}
