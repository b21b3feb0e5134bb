/**
 * Session end (and compaction, and Antigravity's idle Stop): queue a save and wake the worker.
 * The hook itself only writes one small file and starts a detached process, so the agent never
 * waits for indexing or the network; the queued file is the durable record until the worker has
 * saved the session through the first tier that works (server, else local store) — see worker.ts.
 */
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { packagePath } from '../../app/package-path.js';
import { OWNER_DIR, OWNER_FILE } from '../../core/owner-only.js';
import { isOpen } from './breaker.js';
import { errorText } from './files.js';
import type { HookInput } from './hosts.js';
import { lockOwner } from './lock.js';
import type { Logger } from './log.js';
import { enqueue, newItem, scanQueue } from './queue.js';
import type { HookSettings } from './settings.js';
import { spawnDetached } from './spawn-detached.js';
import { recordError } from './state.js';

/** bin/tapedeck.js of this installation. */
export const TAPEDECK_BIN = packagePath('bin', 'tapedeck.js');

/** A retry worker is started at most this often when nothing new was queued. */
const RETRY_COOLDOWN_MS = 30_000;
export const WORKER_STALE_MS = 10 * 60_000;

export interface QueueOutcome {
  queued: boolean;
  /** What the user must be told (the host shows it): set when the save was not queued. */
  notice?: string;
}

/**
 * Queue the session's save. A save that cannot be queued (a full disk) is never reported as
 * "saved later": the outcome carries a notice saying loudly that it was not saved and what to do.
 */
export function queueSave(s: HookSettings, input: HookInput, log: Logger): QueueOutcome {
  if (input.action === 'save-if-idle' && input.fullyIdle === false) {
    log(
      'info',
      `${input.agent} ${input.sessionId ?? '?'}: background tasks still running; saving at the idle Stop`,
    );
    return { queued: false };
  }
  if (!input.sessionId) {
    const why = `${input.agent} ${input.event}: no session id in the hook payload (${input.problem ?? 'field missing'}); the session was not queued`;
    log('error', why);
    recordError(s.paths, { where: `hook ${input.agent} ${input.event}`, agent: input.agent, error: why });
    return { queued: false };
  }
  const item = newItem({
    agent: input.agent,
    sessionId: input.sessionId,
    transcriptPath: input.transcriptPath,
    project: input.cwd,
    event: input.event,
  });
  try {
    enqueue(s.paths, item);
  } catch (e) {
    const why = `Tapedeck did NOT save session ${item.thread}: the save could not be queued (${errorText(e)}). The transcript itself is untouched; free space, then run \`tapedeck index\`.`;
    log('error', why);
    recordError(s.paths, { where: 'queue', agent: input.agent, thread: item.thread, error: why });
    return { queued: false, notice: why };
  }
  log('info', `${item.thread}: queued (${input.event})`);
  kickWorker(s, log, { fresh: true });
  return { queued: true };
}

/**
 * Start the detached queue worker unless one is running. A fresh item always starts one; otherwise
 * (retries of failed items) at most once per cooldown, and not while the server's circuit is open.
 */
export function kickWorker(s: HookSettings, log: Logger, { fresh = false } = {}): boolean {
  if (s.env.TAPEDECK_HOOK_NO_WORKER === '1') return false;
  if (lockOwner(s.paths.lock, WORKER_STALE_MS)) return false;
  if (!fresh) {
    const last = statSync(s.paths.spawned, { throwIfNoEntry: false })?.mtimeMs ?? 0;
    if (Date.now() - last < RETRY_COOLDOWN_MS) return false;
    if (s.apiUrl && isOpen(s.paths.breaker, s.apiUrl)) return false;
    const now = Date.now();
    if (!scanQueue(s.paths).entries.some((e) => !e.item.notBefore || e.item.notBefore <= now)) return false;
  }
  try {
    mkdirSync(s.paths.dir, { recursive: true, mode: OWNER_DIR });
    const child = spawnDetached(
      process.execPath,
      [TAPEDECK_BIN, 'queue', 'flush', '--from-hook', '--home', s.tapedeckHome],
      s.env,
      (e) => log('error', `could not start the queue worker: ${e.message}`),
    );
    writeFileSync(s.paths.spawned, String(child.pid ?? ''), { mode: OWNER_FILE });
    return true;
  } catch (e) {
    log('error', `could not start the queue worker: ${(e as Error).message}`);
    return false;
  }
}
