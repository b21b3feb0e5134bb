/**
 * The SQLite side of storage/sql.ts: better-sqlite3 stays synchronous underneath; each query and
 * each transaction takes the one-lane mutex, so a transaction owns the connection from BEGIN
 * IMMEDIATE to COMMIT. Errors are mapped here once (mapSqliteError; a unique violation → CONFLICT,
 * as on PostgreSQL). The synchronous stores share
 * the connection: a transaction here awaits only these calls, which settle without yielding to
 * I/O, so no synchronous store ever runs inside one half-done.
 */
import { TapedeckError } from '../../core/errors.js';
import {
  compile,
  createMutex,
  type Sql,
  type SqlDb,
  type SqlQueries,
  type SyncSql,
  scopedSqlDb,
} from '../sql.js';
import type { Statement } from './lazy-statements.js';
import { type Db, mapSqliteError } from './open.js';

/** `fn`'s answer, with a failure mapped once (a unique violation → CONFLICT, as on PostgreSQL). */
function mapped<T>(db: Db, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY')
      throw new TapedeckError('CONFLICT', `That already exists: ${(e as Error).message}`, { sqlite: code });
    throw mapSqliteError(e, db.name);
  }
}

/**
 * Each query's statement, prepared once per text: the stores' queries are a small fixed set (a key
 * lookup runs on every keyed request). Bounded, should a caller ever build many distinct texts.
 */
function statementCache(db: Db): (q: Sql) => { stmt: Statement; params: unknown[] } {
  const statements = new Map<string, Statement>();
  return (q) => {
    const { text, params } = compile(q, () => '?');
    let stmt = statements.get(text);
    if (!stmt) {
      if (statements.size >= 500) statements.clear();
      stmt = db.prepare<unknown[]>(text);
      statements.set(text, stmt);
    }
    return { stmt, params };
  };
}

/** Synchronous queries over an open SQLite file (storage/sql.ts SyncSql). */
export function createSqliteSyncSql(db: Db): SyncSql {
  const prepare = statementCache(db);
  const on = <T>(q: Sql, fn: (stmt: Statement, params: unknown[]) => T): T =>
    mapped(db, () => {
      const { stmt, params } = prepare(q);
      return fn(stmt, params);
    });
  return {
    dialect: 'sqlite',
    all: <T>(q: Sql) => on(q, (stmt, params) => stmt.all(...params) as T[]),
    one: <T>(q: Sql) => on(q, (stmt, params) => stmt.get(...params) as T | undefined),
    run: (q: Sql) => on(q, (stmt, params) => stmt.run(...params).changes),
    transaction: (fn) => mapped(db, () => db.transaction(fn).immediate()),
  };
}

/** The shared stores' database over an open SQLite file. */
export function createSqliteSqlDb(db: Db): SqlDb {
  const lane = createMutex();
  const guarded = async <T>(fn: () => T): Promise<T> => mapped(db, fn);
  const prepare = statementCache(db);
  const queries: SqlQueries = {
    all: <T>(q: Sql) =>
      guarded(() => {
        const { stmt, params } = prepare(q);
        return stmt.all(...params) as T[];
      }),
    one: <T>(q: Sql) =>
      guarded(() => {
        const { stmt, params } = prepare(q);
        return stmt.get(...params) as T | undefined;
      }),
    run: (q: Sql) =>
      guarded(() => {
        const { stmt, params } = prepare(q);
        return stmt.run(...params).changes;
      }),
  };
  return scopedSqlDb({
    dialect: 'sqlite',
    direct: {
      all: (q) => lane(() => queries.all(q)),
      one: (q) => lane(() => queries.one(q)),
      run: (q) => lane(() => queries.run(q)),
    },
    begin: (fn) =>
      lane(async () => {
        await guarded(() => db.exec('BEGIN IMMEDIATE'));
        try {
          const out = await fn(queries);
          await guarded(() => db.exec('COMMIT'));
          return out;
        } catch (e) {
          if (db.inTransaction) db.exec('ROLLBACK');
          throw e;
        }
      }),
    // The file belongs to the SQLite backend, which closes it.
    close: async () => {},
  });
}
