/**
 * Whether an error from the `pg` driver means the server or the connection is the trouble — not
 * the statement: a SQLSTATE of class 08 (connection), 53 (insufficient resources) or 57P (shutdown),
 * or no SQLSTATE at all (a socket error such as ECONNREFUSED, a timeout, "Connection terminated").
 * One rule for both ways of reaching PostgreSQL: the pool (sql-pool.ts) maps such an error to
 * STORAGE_UNAVAILABLE, and the synchronous bridge's worker (pg-worker.ts, which embeds this
 * function's source, so it must stay self-contained) drops the connection and reopens it.
 */
export function connectionTrouble(e: object): boolean {
  const raw = (e as { code?: unknown }).code;
  const code = typeof raw === 'string' ? raw : '';
  return !/^[0-9A-Z]{5}$/.test(code) || /^(08|53|57P)/.test(code);
}
