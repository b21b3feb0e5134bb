/**
 * One queue worker at a time: an exclusive lock file holding the owner's pid and start time. A
 * lock whose owner is gone (no such pid) or that is older than `staleMs` is taken over; the
 * takeover renames the old file first and checks it took the one it judged, so two workers
 * recovering at once cannot both win.
 */
import { closeSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { OWNER_FILE } from '../../core/owner-only.js';

export interface Lock {
  release(): void;
}

interface Owner {
  pid: number;
  at: number;
  host: string;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOwner(path: string): { raw: string; owner: Owner | null } | null {
  try {
    const raw = readFileSync(path, 'utf8');
    try {
      return { raw, owner: JSON.parse(raw) as Owner };
    } catch {
      return { raw, owner: null };
    }
  } catch {
    return null;
  }
}

/** The live owner of the lock, if any (for status). */
export function lockOwner(path: string, staleMs: number, now = Date.now()): Owner | null {
  const r = readOwner(path);
  if (!r?.owner) return null;
  return isStale(r.owner, staleMs, now) ? null : r.owner;
}

function isStale(o: Owner | null, staleMs: number, now: number): boolean {
  if (!o || typeof o.pid !== 'number') return true;
  if (now - o.at > staleMs) return true;
  return o.host === hostname() && !alive(o.pid);
}

function create(path: string): Lock | null {
  let fd: number;
  try {
    fd = openSync(path, 'wx', OWNER_FILE);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return null;
    throw e;
  }
  const raw = JSON.stringify({ pid: process.pid, at: Date.now(), host: hostname() });
  writeSync(fd, raw);
  closeSync(fd);
  return {
    release() {
      const now = readOwner(path);
      if (now?.raw === raw) unlinkSync(path);
    },
  };
}

export function tryLock(
  path: string,
  { staleMs = 10 * 60_000, onStale = (_: string) => {} } = {},
): Lock | null {
  const got = create(path);
  if (got) return got;
  const seen = readOwner(path);
  if (!seen) return create(path);
  if (!isStale(seen.owner, staleMs, Date.now())) return null;
  const aside = `${path}.stale.${process.pid}`;
  try {
    renameSync(path, aside);
  } catch {
    return null;
  }
  const taken = readOwner(aside);
  if (taken?.raw !== seen.raw) {
    // Someone replaced the stale lock with a live one in between: put it back, and yield.
    try {
      renameSync(aside, path);
    } catch {
      // the owner will notice its lock is gone only by being first again
    }
    return null;
  }
  unlinkSync(aside);
  onStale(`took over a stale queue lock (pid ${seen.owner?.pid ?? '?'})`);
  return create(path);
}
