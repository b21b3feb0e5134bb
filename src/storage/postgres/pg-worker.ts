/**
 * The worker thread behind the synchronous PostgreSQL client (sync-client.ts): it owns one `pg`
 * connection, runs each request the main thread posts, answers on the port, then wakes the main
 * thread through the shared flag. A lost connection is dropped and reopened on the next request.
 *
 * It is plain CommonJS run with `eval`, without the parent's loader flags: a worker that loaded
 * TypeScript through the parent's loader hooks would deadlock while the parent blocks waiting.
 */
import { connectionTrouble } from './connection-trouble.js';

export type WorkerRequest =
  /** `name`: run it as a named prepared statement (parsed and planned once per connection). */
  | { op: 'query'; sql: string; params?: unknown[]; name?: string }
  | { op: 'exec'; sql: string }
  | { op: 'close' };

export type WorkerReply =
  | { ok: true; rows: Record<string, unknown>[]; rowCount: number }
  | { ok: false; error: { message: string; code?: string; lost: boolean } };

export interface WorkerInit {
  /** Resolved path of the `pg` package. */
  pgPath: string;
  url: string;
  flag: Int32Array;
  port: unknown;
  connectTimeoutMs: number;
  statementTimeoutMs: number;
  /** search_path for every connection. */
  searchPath: string;
}

export const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const init = workerData;
const pg = require(init.pgPath);
// int8 (counts, sums) and numeric as numbers: every number Tapedeck stores fits in 2^53.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));
let client;
let broken = false;

async function connection() {
  if (client && !broken) return client;
  if (client) client.end().catch(() => {});
  broken = false;
  const c = new pg.Client({
    connectionString: init.url,
    connectionTimeoutMillis: init.connectTimeoutMs,
    statement_timeout: init.statementTimeoutMs,
    application_name: new URL(init.url).searchParams.get('application_name') || 'tapedeck',
    options: '-c search_path=' + init.searchPath.replace(/ /g, ''),
  });
  c.on('error', () => { broken = true; });
  client = c;
  try {
    await c.connect();
  } catch (e) {
    client = undefined;
    throw e;
  }
  return c;
}

// Errors after which the connection cannot be trusted: reconnect on the next request
// (connection-trouble.ts, the same rule the pool maps to STORAGE_UNAVAILABLE).
const isLost = ${connectionTrouble.toString()};

async function handle(req) {
  if (req.op === 'close') {
    if (client) await client.end().catch(() => {});
    client = undefined;
    return { ok: true, rows: [], rowCount: 0 };
  }
  try {
    const c = await connection();
    const r =
      req.op === 'exec'
        ? await c.query(req.sql)
        : req.name
          ? await c.query({ name: req.name, text: req.sql, values: req.params || [] })
          : await c.query(req.sql, req.params || []);
    const last = Array.isArray(r) ? r[r.length - 1] : r;
    return { ok: true, rows: (last && last.rows) || [], rowCount: (last && last.rowCount) || 0 };
  } catch (e) {
    const lost = isLost(e) || broken;
    if (lost) broken = true;
    return { ok: false, error: { message: e.message || String(e), code: e.code, lost } };
  }
}

init.port.on('message', (req) => {
  handle(req).then((reply) => {
    init.port.postMessage(reply);
    Atomics.store(init.flag, 0, 1);
    Atomics.notify(init.flag, 0);
  });
});
`;
