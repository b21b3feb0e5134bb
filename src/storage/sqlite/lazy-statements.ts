/**
 * Statements prepared on first use. Every CLI call builds the whole engine, so stores that
 * prepared everything up front would pay for statements the command never runs.
 */
import type BetterSqlite3 from 'better-sqlite3';
import type { Db } from './open.js';

export type Statement = BetterSqlite3.Statement<unknown[], unknown>;

export function lazyStatements<K extends string>(db: Db, sql: Record<K, string>): Record<K, Statement> {
  const out = {} as Record<K, Statement>;
  for (const k of Object.keys(sql) as K[]) {
    let s: Statement | undefined;
    Object.defineProperty(out, k, { get: () => (s ??= db.prepare<unknown[]>(sql[k])), enumerable: true });
  }
  return out;
}
