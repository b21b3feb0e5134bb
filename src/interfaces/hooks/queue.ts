/**
 * The save queue: one JSON file per session in <tapedeck home>/queue/, written atomically, so a save
 * survives anything that happens after the hook answered (a dead server, a locked store, a crash).
 * The same session queued again replaces its file (the newest request wins; a save always covers
 * the whole transcript). The worker claims an item by renaming it into processing/, so a request
 * queued while it works is never lost; a file that does not parse is moved to bad/ and reported;
 * an item that keeps failing goes to failed/ after MAX_ATTEMPTS.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fnv1a } from '../../core/hash.js';
import { OWNER_DIR } from '../../core/owner-only.js';
import { type AgentId, isAgentId } from '../../core/types.js';
import { writeAtomic, writeIfAbsent } from './files.js';
import type { HookPaths } from './settings.js';

export const MAX_ATTEMPTS = 10;

export interface QueueItem {
  v: 1;
  kind: 'save';
  /** The thread id: `<agent>:<native session id>`. */
  thread: string;
  agent: AgentId;
  sessionId: string;
  transcriptPath?: string;
  project?: string;
  event: string;
  queuedAt: string;
  nonce: string;
  attempts: number;
  lastError?: string;
  /** Epoch ms before which the worker leaves it alone (backoff). */
  notBefore?: number;
  /** The local store already has it (the server is still owed it). */
  localSaved?: boolean;
}

export const fileFor = (thread: string) =>
  `save-${thread.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 120)}-${fnv1a(thread).toString(16)}.json`;

export function newItem(
  fields: Omit<QueueItem, 'v' | 'kind' | 'thread' | 'queuedAt' | 'nonce' | 'attempts'>,
): QueueItem {
  return {
    v: 1,
    kind: 'save',
    thread: `${fields.agent}:${fields.sessionId}`,
    queuedAt: new Date().toISOString(),
    nonce: `${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
    attempts: 0,
    ...fields,
  };
}

/** Queue (or re-queue) a save; replaces an older request for the same session. */
export function enqueue(paths: HookPaths, item: QueueItem): string {
  const path = join(paths.queue, fileFor(item.thread));
  writeAtomic(path, JSON.stringify(item));
  return path;
}

function isItem(v: unknown): v is QueueItem {
  const o = v as QueueItem;
  return (
    !!o &&
    typeof o === 'object' &&
    o.kind === 'save' &&
    typeof o.agent === 'string' &&
    isAgentId(o.agent) &&
    typeof o.sessionId === 'string' &&
    o.sessionId !== '' &&
    typeof o.thread === 'string' &&
    typeof o.nonce === 'string'
  );
}

const list = (dir: string) => {
  try {
    return readdirSync(dir).filter((f) => f.endsWith('.json') && !f.startsWith('.'));
  } catch {
    return [];
  }
};

export interface QueueEntry {
  file: string;
  item: QueueItem;
}

export interface QueueScan {
  entries: QueueEntry[];
  /** Files moved to bad/ by this scan, with why. */
  bad: { file: string; reason: string }[];
}

/** Every readable item, oldest first; unreadable files are moved to bad/. */
export function scanQueue(paths: HookPaths): QueueScan {
  const entries: QueueEntry[] = [];
  const bad: QueueScan['bad'] = [];
  for (const file of list(paths.queue)) {
    const path = join(paths.queue, file);
    let reason: string | undefined;
    try {
      const v = JSON.parse(readFileSync(path, 'utf8'));
      if (isItem(v)) entries.push({ file, item: v });
      else reason = 'not a queue item (fields missing)';
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') continue; // claimed by the worker meanwhile
      reason = `unreadable: ${(e as Error).message}`;
    }
    if (reason) {
      moveAside(paths.bad, path, file);
      bad.push({ file, reason });
    }
  }
  entries.sort((a, b) => a.item.queuedAt.localeCompare(b.item.queuedAt));
  return { entries, bad };
}

function moveAside(dir: string, path: string, file: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: OWNER_DIR });
    renameSync(path, join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${file}`));
  } catch {
    // gone already
  }
}

export const countFiles = (dir: string) => list(dir).length;

/** Take an item for processing: null when someone else took it first. */
export function claim(paths: HookPaths, entry: QueueEntry): string | null {
  mkdirSync(paths.processing, { recursive: true, mode: OWNER_DIR });
  const to = join(paths.processing, `${entry.item.nonce}.${entry.file}`);
  try {
    renameSync(join(paths.queue, entry.file), to);
    return to;
  } catch {
    return null;
  }
}

/** Done: forget the claimed copy. */
export function finish(claimed: string): void {
  try {
    unlinkSync(claimed);
  } catch {
    // already gone
  }
}

/**
 * Not done: put the item back (with its attempts and error) unless a newer request for the same
 * session was queued meanwhile, which supersedes it; after MAX_ATTEMPTS it moves to failed/.
 */
export function putBack(
  paths: HookPaths,
  claimed: string,
  item: QueueItem,
): 'queued' | 'superseded' | 'failed' {
  const file = fileFor(item.thread);
  if (item.attempts >= MAX_ATTEMPTS) {
    writeAtomic(join(paths.failed, file), JSON.stringify(item));
    finish(claimed);
    return 'failed';
  }
  const placed = writeIfAbsent(join(paths.queue, file), JSON.stringify(item));
  finish(claimed);
  return placed ? 'queued' : 'superseded';
}

/** Items a crashed worker left in processing/: back to the queue (run under the worker lock). */
export function recoverClaims(paths: HookPaths): number {
  let n = 0;
  for (const f of list(paths.processing)) {
    const path = join(paths.processing, f);
    try {
      const item = JSON.parse(readFileSync(path, 'utf8'));
      if (isItem(item)) {
        putBack(paths, path, item);
        n++;
      } else moveAside(paths.bad, path, f);
    } catch {
      moveAside(paths.bad, path, f);
    }
  }
  return n;
}

/** Move every failed item back to the queue with a fresh attempt count. */
export function requeueFailed(paths: HookPaths): number {
  let n = 0;
  for (const f of list(paths.failed)) {
    const path = join(paths.failed, f);
    try {
      const item = JSON.parse(readFileSync(path, 'utf8')) as QueueItem;
      writeIfAbsent(join(paths.queue, f), JSON.stringify({ ...item, attempts: 0, notBefore: 0 }));
      unlinkSync(path);
      n++;
    } catch {
      moveAside(paths.bad, path, f);
    }
  }
  return n;
}

export const backoffMs = (attempts: number) => Math.min(30 * 60_000, 15_000 * 2 ** Math.max(0, attempts - 1));
