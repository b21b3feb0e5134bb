/**
 * A synchronous PostgreSQL client. Tapedeck's store ports are synchronous (the embedded SQLite
 * driver is), so the `pg` driver runs in a worker thread and each call blocks the caller on a
 * shared flag until the worker answers — the same one-request-at-a-time model as SQLite, with
 * the round trip to the server added. A lost connection is reopened on the next call; a call
 * outside a transaction is retried once on a fresh connection, so a server that went away and
 * came back is used again without a restart.
 */
import { createRequire } from 'node:module';
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { TapedeckError } from '../../core/errors.js';
import { WORKER_SOURCE, type WorkerInit, type WorkerReply, type WorkerRequest } from './pg-worker.js';

export type Row = Record<string, unknown>;

/** A statement PostgreSQL refused (not a connection problem): `code` is the SQLSTATE. */
export class PgError extends Error {
  readonly code: string;
  constructor(message: string, code: string) {
    super(message);
    this.name = 'PgError';
    this.code = code;
  }
}

export interface PgSync {
  /** The URL without its password, for messages. */
  readonly label: string;
  /**
   * `name` makes it a named prepared statement: parsed once per connection, its plan cached by
   * the server (generic after a few runs). One name, one SQL text, for the client's lifetime.
   */
  query<T = Row>(sql: string, params?: unknown[], name?: string): T[];
  one<T = Row>(sql: string, params?: unknown[]): T | undefined;
  /** Run a statement; the number of rows it touched. */
  run(sql: string, params?: unknown[]): number;
  /** Several statements without parameters (migrations). */
  exec(sql: string): void;
  /**
   * Run `fn` in a transaction (a savepoint when nested). A top-level `write` transaction takes
   * Tapedeck's store-wide write lock first, like SQLite's IMMEDIATE: writers queue, never interleave.
   * `read` sees one snapshot throughout; `read-write` writes without the store lock (schema setup).
   */
  transaction<T>(fn: () => T, mode?: TxMode): T;
  /**
   * A top-level transaction around async `fn` (the async stores joined to it through
   * `SqlDb.within`). Inside, await only store calls: they settle without yielding to I/O, so no
   * other caller's statement lands on this connection while the transaction is open.
   */
  transactionAsync<T>(fn: () => Promise<T>, mode?: TxMode): Promise<T>;
  readonly inTransaction: boolean;
  close(): void;
}

export type TxMode = 'read' | 'write' | 'read-write';

export interface PgSyncOptions {
  /** The schema(s) unqualified names resolve in, e.g. `tapedeck, public`. */
  searchPath?: string;
  connectTimeoutMs?: number;
  statementTimeoutMs?: number;
}

/** The advisory lock every top-level write transaction holds. */
export const WRITE_LOCK = 74_201;

export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://(unparsable URL)';
  }
}

const require = createRequire(import.meta.url);

export function connectPgSync(
  url: string,
  { connectTimeoutMs = 5_000, statementTimeoutMs = 30_000, searchPath = 'public' }: PgSyncOptions = {},
): PgSync {
  const label = redactUrl(url);
  const flag = new Int32Array(new SharedArrayBuffer(4));
  let worker: Worker | undefined;
  let port: MessagePort | undefined;
  let depth = 0;
  let closed = false;

  const start = () => {
    const ch = new MessageChannel();
    const init: WorkerInit = {
      pgPath: require.resolve('pg'),
      url,
      flag,
      port: ch.port2,
      connectTimeoutMs,
      statementTimeoutMs,
      searchPath: searchPath === 'public' ? 'public' : `${searchPath}, public`,
    };
    worker = new Worker(WORKER_SOURCE, {
      eval: true,
      execArgv: [],
      workerData: init,
      transferList: [ch.port2],
    });
    worker.unref();
    worker.on('error', () => {});
    port = ch.port1;
    port.unref();
  };

  const unavailable = (why: string) =>
    new TapedeckError('STORAGE_UNAVAILABLE', `The PostgreSQL server ${label} is unavailable: ${why}`);

  const call = (req: WorkerRequest): WorkerReply => {
    if (closed) throw unavailable('the connection was closed');
    if (!worker) start();
    Atomics.store(flag, 0, 0);
    port!.postMessage(req);
    const got = awaitReply(flag, port!, connectTimeoutMs + statementTimeoutMs + 5_000);
    if (!got) {
      // The worker is stuck (a half-open socket): start over with a new one next time, so a
      // late answer can never be taken for the next request's.
      void worker?.terminate();
      worker = undefined;
      throw unavailable('no answer in time');
    }
    return got as WorkerReply;
  };

  const send = (req: WorkerRequest): WorkerReply & { ok: true } => {
    let reply = call(req);
    // Outside a transaction a lost connection is retried once: the worker reconnects.
    if (!reply.ok && reply.error.lost && depth === 0) reply = call(req);
    if (reply.ok) return reply;
    const { message, code, lost } = reply.error;
    if (lost) throw unavailable(message);
    throw new PgError(message, code ?? '');
  };

  /** A top-level transaction's start: a write one takes the store-wide lock first. */
  const begin = (mode: TxMode) => {
    send({
      op: 'query',
      sql: mode === 'read' ? 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY' : 'BEGIN',
    });
    depth = 1;
    if (mode === 'write') send({ op: 'query', sql: `SELECT pg_advisory_xact_lock(${WRITE_LOCK})` });
  };
  const rollback = () => {
    try {
      call({ op: 'query', sql: 'ROLLBACK' });
    } catch {
      // a lost connection rolls back by itself
    }
  };

  const client: PgSync = {
    label,
    query: <T>(sql: string, params?: unknown[], name?: string) =>
      send(name ? { op: 'query', sql, params, name } : { op: 'query', sql, params }).rows as T[],
    one: <T>(sql: string, params?: unknown[]) => send({ op: 'query', sql, params }).rows[0] as T | undefined,
    run: (sql, params) => send({ op: 'query', sql, params }).rowCount,
    exec: (sql) => {
      send({ op: 'exec', sql });
    },
    transaction<T>(fn: () => T, mode: TxMode = 'write'): T {
      if (depth > 0) {
        const sp = `sp${depth}`;
        send({ op: 'query', sql: `SAVEPOINT ${sp}` });
        depth++;
        try {
          const out = fn();
          send({ op: 'query', sql: `RELEASE SAVEPOINT ${sp}` });
          return out;
        } catch (e) {
          try {
            send({ op: 'query', sql: `ROLLBACK TO SAVEPOINT ${sp}` });
          } catch {
            // the outer transaction is failing anyway
          }
          throw e;
        } finally {
          depth--;
        }
      }
      try {
        begin(mode);
        const out = fn();
        send({ op: 'query', sql: 'COMMIT' });
        return out;
      } catch (e) {
        rollback();
        throw e;
      } finally {
        depth = 0;
      }
    },
    async transactionAsync<T>(fn: () => Promise<T>, mode: TxMode = 'write'): Promise<T> {
      if (depth > 0) throw new Error('transactionAsync opens a transaction; it cannot nest');
      try {
        begin(mode);
        const out = await fn();
        send({ op: 'query', sql: 'COMMIT' });
        return out;
      } catch (e) {
        rollback();
        throw e;
      } finally {
        depth = 0;
      }
    },
    get inTransaction() {
      return depth > 0;
    },
    close() {
      if (closed) return;
      if (worker) {
        try {
          call({ op: 'close' });
        } catch {
          // closing anyway
        }
        void worker.terminate();
      }
      closed = true;
      worker = undefined;
    },
  };
  return client;
}

const nap = new Int32Array(new SharedArrayBuffer(4));

/**
 * Block until the worker's reply is on `port` or `ms` pass. The worker posts its reply, then
 * raises the flag; under load the raised flag can be seen before the message can be taken off
 * the port, so a raised flag with an empty port is polled in 1 ms naps until the reply lands.
 */
export function awaitReply(flag: Int32Array, port: MessagePort, ms: number): unknown {
  const deadline = Date.now() + ms;
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0) return undefined;
    Atomics.wait(flag, 0, 0, left);
    const got = receiveMessageOnPort(port);
    if (got) return got.message;
    Atomics.wait(nap, 0, 0, 1);
  }
}
