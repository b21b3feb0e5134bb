/**
 * Error mapping on PostgreSQL for the skill store (the twin of sqliteGuard), and the codes the
 * pool (sql-pool.ts) maps for the stores on storage/sql.ts (rules, keys, working memory, wiki):
 * a unique violation becomes the CONFLICT the SQLite store or its service raises for the same
 * case, and text PostgreSQL cannot hold (a NUL character; SQLite stores it) becomes INVALID_INPUT
 * instead of a driver error. Connection loss already arrives as STORAGE_UNAVAILABLE.
 */
import { TapedeckError } from '../../core/errors.js';
import { PgError } from './sync-client.js';

export const UNIQUE_VIOLATION = '23505';

export function isUniqueViolation(e: unknown): boolean {
  return e instanceof PgError && e.code === UNIQUE_VIOLATION;
}

/** Text PostgreSQL cannot hold, as INVALID_INPUT; undefined for any other SQLSTATE. */
export function unstorableText(code: string, message: string): TapedeckError | undefined {
  // 22021: invalid byte sequence (a NUL in text); 22P05: untranslatable character.
  if (code === '22021' || code === '22P05')
    return new TapedeckError('INVALID_INPUT', `The text cannot be stored: ${message}`, { sqlstate: code });
  return undefined;
}

/** Map a PostgreSQL refusal; `conflict` builds the CONFLICT for a unique violation. */
export function mapPgError(e: unknown, conflict?: () => TapedeckError): unknown {
  if (!(e instanceof PgError)) return e;
  if (e.code === UNIQUE_VIOLATION && conflict) return conflict();
  return unstorableText(e.code, e.message) ?? e;
}

/** Run `fn` with its PostgreSQL errors mapped (see mapPgError). */
export function pgGuard<T>(fn: () => T, conflict?: () => TapedeckError): T {
  try {
    return fn();
  } catch (e) {
    throw mapPgError(e, conflict);
  }
}
