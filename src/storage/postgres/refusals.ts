/**
 * PostgreSQL refusals the stores map (sql-pool.ts): a unique violation becomes the CONFLICT the
 * SQLite store raises for the same case, and text PostgreSQL cannot hold (a NUL character; SQLite
 * stores it) becomes INVALID_INPUT instead of a driver error. Connection loss already arrives as
 * STORAGE_UNAVAILABLE.
 */
import { TapedeckError } from '../../core/errors.js';

export const UNIQUE_VIOLATION = '23505';

/** Text PostgreSQL cannot hold, as INVALID_INPUT; undefined for any other SQLSTATE. */
export function unstorableText(code: string, message: string): TapedeckError | undefined {
  // 22021: invalid byte sequence (a NUL in text); 22P05: untranslatable character.
  if (code === '22021' || code === '22P05')
    return new TapedeckError('INVALID_INPUT', `The text cannot be stored: ${message}`, { sqlstate: code });
  return undefined;
}
