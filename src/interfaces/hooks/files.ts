/**
 * Small file helpers for the hook runtime: atomic writes (tmp + rename) and tolerant JSON reads.
 * Every file the hooks keep (queue items, state, breaker, caches) is written here, owner-only and
 * redacted: what a host or a server said can quote a secret, and none is kept.
 */
import { linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { OWNER_DIR, OWNER_FILE } from '../../core/owner-only.js';
import { redact } from '../../core/redact.js';

const tmpName = (path: string) =>
  join(dirname(path), `.${basename(path)}.${process.pid}.${Math.random().toString(36).slice(2, 8)}.tmp`);

/** Write `data` so readers see the old file or the new one, never half of it. */
export function writeAtomic(path: string, data: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: OWNER_DIR });
  const tmp = tmpName(path);
  try {
    writeFileSync(tmp, redact(data).text, { mode: OWNER_FILE });
    renameSync(tmp, path);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      // never created
    }
    throw e;
  }
}

/** Write `data` at `path` only if nothing is there yet (atomic); false when something was. */
export function writeIfAbsent(path: string, data: string): boolean {
  mkdirSync(dirname(path), { recursive: true, mode: OWNER_DIR });
  const tmp = tmpName(path);
  writeFileSync(tmp, redact(data).text, { mode: OWNER_FILE });
  try {
    linkSync(tmp, path);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  } finally {
    unlinkSync(tmp);
  }
}

/** A JSON file's value, or `fallback` when it is missing or unreadable. */
export function readJson<T>(path: string, fallback: T): T {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    return fallback;
  }
}

export const errorText = (e: unknown) => {
  const err = e as NodeJS.ErrnoException;
  if (err?.code === 'ENOSPC') return 'disk full (ENOSPC)';
  return err?.message ?? String(e);
};
