/**
 * The PostgreSQL side of storage/sql.ts: a real `pg.Pool` (async, no worker thread, no
 * Atomics.wait), so one server process serves many callers at once. `pg` loads on the first
 * query, never at startup. Errors are mapped here once: connection trouble → STORAGE_UNAVAILABLE,
 * text PostgreSQL cannot hold → INVALID_INPUT, a unique violation → CONFLICT.
 */
import type { Pool, PoolClient } from 'pg';
import { TapedeckError } from '../../core/errors.js';
import { compile, type Sql, type SqlDb, type SqlQueries, type SyncSql, scopedSqlDb } from '../sql.js';
import { connectionTrouble } from './connection-trouble.js';
import { UNIQUE_VIOLATION, unstorableText } from './refusals.js';
import { type PgSync, redactUrl } from './sync-client.js';

export interface PgPoolOptions {
  /** The schema unqualified names resolve in (then public). */
  schema: string;
  connectTimeoutMs?: number;
  statementTimeoutMs?: number;
  /** Connections at most (default 10). */
  max?: number;
}

function mapError(e: unknown, label: string): unknown {
  if (e instanceof TapedeckError) return e;
  const err = e as { code?: string; message?: string };
  const code = typeof err.code === 'string' ? err.code : '';
  if (connectionTrouble(err))
    return new TapedeckError(
      'STORAGE_UNAVAILABLE',
      `The PostgreSQL server ${label} is unavailable: ${err.message ?? String(e)}`,
    );
  const text = unstorableText(code, err.message ?? '');
  if (text) return text;
  if (code === UNIQUE_VIOLATION)
    return new TapedeckError('CONFLICT', `That already exists: ${err.message}`, { sqlstate: code });
  return e;
}

/** The shared stores' database on a PostgreSQL server (`url` without Tapedeck's `schema` parameter). */
export function createPgSqlDb(
  url: string,
  { schema, connectTimeoutMs = 5_000, statementTimeoutMs = 30_000, max = 10 }: PgPoolOptions,
): SqlDb {
  const label = redactUrl(url);
  let pool: Promise<Pool> | undefined;
  const open = () =>
    (pool ??= import('pg').then(({ default: pg }) => {
      const p = new pg.Pool({
        connectionString: url,
        connectionTimeoutMillis: connectTimeoutMs,
        statement_timeout: statementTimeoutMs,
        max,
        // A CLI call ends when its work does, not when idle connections time out.
        allowExitOnIdle: true,
        application_name: 'tapedeck',
        options: `-c search_path=${schema === 'public' ? 'public' : `${schema},public`}`,
      });
      // An idle connection the server dropped: the pool discards it; the next query opens another.
      p.on('error', () => {});
      return p;
    }));
  const on = (
    run: (text: string, params: unknown[]) => Promise<{ rows: unknown[]; rowCount: number | null }>,
  ) => {
    const exec = async (q: Sql) => {
      const { text, params } = compile(q, (n) => `$${n}`);
      try {
        return await run(text, params);
      } catch (e) {
        throw mapError(e, label);
      }
    };
    const queries: SqlQueries = {
      all: async <T>(q: Sql) => (await exec(q)).rows as T[],
      one: async <T>(q: Sql) => (await exec(q)).rows[0] as T | undefined,
      run: async (q: Sql) => (await exec(q)).rowCount ?? 0,
    };
    return queries;
  };
  return scopedSqlDb({
    dialect: 'postgres',
    direct: on(async (text, params) => (await open()).query(text, params)),
    async begin(fn) {
      let client: PoolClient;
      try {
        client = await (await open()).connect();
      } catch (e) {
        throw mapError(e, label);
      }
      const tx = on((text, params) => client.query(text, params));
      let broken = false;
      try {
        await tx.run({ strings: ['BEGIN'], values: [] });
        const out = await fn(tx);
        await tx.run({ strings: ['COMMIT'], values: [] });
        return out;
      } catch (e) {
        await client.query('ROLLBACK').catch(() => {
          broken = true;
        });
        throw e;
      } finally {
        client.release(broken);
      }
    },
    async close() {
      const p = pool;
      pool = undefined;
      if (p) await (await p).end();
    },
  });
}

/**
 * The synchronous client's connection as SqlQueries, for `SqlDb.within` while some stores still
 * use that client: an import's rules (async store) then commit in the same transaction as its
 * memories, skills and threads (synchronous stores). Each call settles at once. Errors are
 * mapped as the pool maps them.
 */
export function syncQueries(pg: PgSync): SqlQueries {
  const sync = createPgSyncSql(pg);
  const settled = <T>(fn: () => T): Promise<T> => {
    try {
      return Promise.resolve(fn());
    } catch (e) {
      return Promise.reject(e);
    }
  };
  return {
    all: <T>(q: Sql) => settled(() => sync.all<T>(q)),
    one: <T>(q: Sql) => settled(() => sync.one<T>(q)),
    run: (q: Sql) => settled(() => sync.run(q)),
  };
}

/** Synchronous queries over the synchronous client (storage/sql.ts SyncSql), errors mapped. */
export function createPgSyncSql(pg: PgSync): SyncSql {
  const on = <T>(q: Sql, fn: (text: string, params: unknown[]) => T): T => {
    const { text, params } = compile(q, (n) => `$${n}`);
    try {
      return fn(text, params);
    } catch (e) {
      throw mapError(e, pg.label);
    }
  };
  return {
    dialect: 'postgres',
    all: <T>(q: Sql) => on(q, (text, params) => pg.query<T>(text, params)),
    one: <T>(q: Sql) => on(q, (text, params) => pg.one<T>(text, params)),
    run: (q: Sql) => on(q, (text, params) => pg.run(text, params)),
    transaction<T>(fn: () => T): T {
      try {
        return pg.transaction(fn, 'write');
      } catch (e) {
        throw mapError(e, pg.label);
      }
    },
  };
}
