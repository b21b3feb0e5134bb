/**
 * The queue worker (`tapedeck queue flush`): one at a time (the queue lock), it saves each queued
 * session through the first tier that works and records the outcome for `tapedeck status`.
 *
 * With a server configured, the server is the target: when it fails, the session is indexed in
 * the local store meanwhile (local search works at once) and stays queued for the server, with
 * backoff; a network failure opens the circuit so the rest of the run skips the server. Without a
 * server, the local store is the target. An item that keeps failing moves to failed/ after
 * MAX_ATTEMPTS. Started detached by hooks with `--from-hook` (backoff and circuit respected), or by
 * a person (everything due now, waiting for a running worker first).
 */
import type { Engine } from '../../app/engine.js';
import { isOpen, readBreaker, recordFailure, recordSuccess } from './breaker.js';
import { type Saved, saveLocally, saveOnServer } from './capture.js';
import { ServerError } from './client.js';
import { writeCached } from './context-cache.js';
import { errorText } from './files.js';
import { type Lock, tryLock } from './lock.js';
import type { Logger } from './log.js';
import {
  backoffMs,
  claim,
  finish,
  putBack,
  type QueueItem,
  recoverClaims,
  requeueFailed,
  scanQueue,
} from './queue.js';
import { WORKER_STALE_MS } from './save.js';
import type { HookSettings } from './settings.js';
import { recordError, recordSave } from './state.js';

export interface FlushOptions {
  /** Try everything queued now: ignore backoff and the server's open circuit (a person asked). */
  force?: boolean;
  /** Wait this long for a running worker to finish. */
  waitMs?: number;
  /** Move items that gave up back into the queue first. */
  retryFailed?: boolean;
  log: Logger;
}

export interface FlushReport {
  /** False when another worker held the queue (it will process what is queued). */
  ran: boolean;
  saved: (Saved & { localOnly?: false })[];
  failed: { thread: string; error: string; attempts: number; outcome: string }[];
  /** Items still queued afterwards. */
  waiting: number;
  bad: { file: string; reason: string }[];
  recovered: number;
  requeued: number;
}

const MAX_RUN_MS = 5 * 60_000;

async function lockQueue(s: HookSettings, o: FlushOptions): Promise<Lock | null> {
  const until = Date.now() + (o.waitMs ?? 0);
  for (;;) {
    const lock = tryLock(s.paths.lock, { staleMs: WORKER_STALE_MS, onStale: (m) => o.log('warn', m) });
    if (lock || Date.now() >= until) return lock;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Network trouble or a server error: the server is down, not the request wrong. Only what the
 * client says about the server counts — a session whose transcript is missing or unreadable is
 * that session's problem and must not open the circuit for the next session's push.
 */
const serverDown = (e: unknown) => e instanceof ServerError && (e.status === undefined || e.status >= 500);

export async function flushQueue(s: HookSettings, o: FlushOptions): Promise<FlushReport> {
  const report: FlushReport = {
    ran: false,
    saved: [],
    failed: [],
    waiting: 0,
    bad: [],
    recovered: 0,
    requeued: 0,
  };
  const started = Date.now();
  let engine: Engine | undefined;
  const local = async () => {
    if (!engine) engine = await (await import('./local-store.js')).openLocalEngine(s, 5000);
    return engine;
  };
  const warm = new Map<string, { agent: string; project?: string; markdown: string; items: number }>();
  let skipServer = false;

  async function saveOne(item: QueueItem): Promise<Saved> {
    if (!s.apiUrl) return saveLocally(await local(), item);
    try {
      if (skipServer) throw new ServerError(`server ${s.apiUrl} is not answering (circuit open)`);
      const saved = await saveOnServer(s, item);
      recordSuccess(s.paths.breaker, s.apiUrl);
      return saved;
    } catch (e) {
      if (serverDown(e) && !skipServer) {
        recordFailure(s.paths.breaker, s.apiUrl, e);
        skipServer = true;
      }
      if (!item.localSaved) {
        try {
          saveLocally(await local(), item);
          item.localSaved = true;
          o.log('info', `${item.thread}: indexed in the local store meanwhile; still queued for ${s.apiUrl}`);
        } catch (le) {
          o.log('warn', `${item.thread}: local store fallback failed too: ${errorText(le)}`);
        }
      }
      throw e;
    }
  }

  for (let round = 0; round < 5 && Date.now() - started < MAX_RUN_MS; round++) {
    const lock = await lockQueue(s, round === 0 ? o : { ...o, waitMs: 0 });
    if (!lock) break;
    report.ran = true;
    try {
      if (round === 0) {
        report.recovered = recoverClaims(s.paths);
        if (o.retryFailed) report.requeued = requeueFailed(s.paths);
      }
      const scan = scanQueue(s.paths);
      for (const b of scan.bad) {
        o.log('error', `corrupted queue file ${b.file} moved to queue/bad/ (${b.reason})`);
        recordError(s.paths, {
          where: 'queue',
          error: `corrupted queue file ${b.file} moved to queue/bad/: ${b.reason}`,
        });
      }
      report.bad.push(...scan.bad);
      if (s.apiUrl && !o.force && isOpen(s.paths.breaker, s.apiUrl)) skipServer = true;
      const now = Date.now();
      for (const entry of scan.entries) {
        if (Date.now() - started > MAX_RUN_MS) break;
        if (!o.force && entry.item.notBefore && entry.item.notBefore > now) continue;
        if (skipServer && !o.force && entry.item.localSaved) continue;
        const claimed = claim(s.paths, entry);
        if (!claimed) continue;
        const item: QueueItem = { ...entry.item };
        try {
          const saved = await saveOne(item);
          recordSave(s.paths, { ...saved, at: new Date().toISOString() });
          finish(claimed);
          report.saved.push(saved);
          o.log(
            'info',
            `${item.thread}: saved (${saved.target}, ${saved.how}${saved.messages === undefined ? '' : `, ${saved.messages} messages`})`,
          );
          if (saved.target === 'local' && engine) {
            const { bundleFrom } = await import('./local-store.js');
            try {
              const b = await bundleFrom(engine, { agent: item.agent, project: item.project });
              warm.set(`${item.agent}|${item.project ?? ''}`, {
                agent: item.agent,
                project: item.project,
                ...b,
              });
            } catch (e) {
              o.log('warn', `context for the next ${item.agent} session not prepared: ${errorText(e)}`);
            }
          }
        } catch (e) {
          item.attempts += 1;
          item.lastError = errorText(e);
          item.notBefore = Date.now() + backoffMs(item.attempts);
          const outcome = putBack(s.paths, claimed, item);
          report.failed.push({
            thread: item.thread,
            error: item.lastError,
            attempts: item.attempts,
            outcome,
          });
          const next =
            outcome === 'failed'
              ? 'gave up (queue/failed/)'
              : outcome === 'superseded'
                ? 'a newer request is queued'
                : `retry after ${Math.round(backoffMs(item.attempts) / 1000)} s`;
          o.log('error', `${item.thread}: not saved (attempt ${item.attempts}: ${item.lastError}); ${next}`);
          recordError(s.paths, {
            where: 'queue worker',
            agent: item.agent,
            thread: item.thread,
            error: item.lastError,
          });
        }
      }
    } finally {
      lock.release();
    }
    // Something queued while the lock was held, by a hook that saw the lock and did not start a
    // worker, must not wait for the next event: look again after releasing.
    const after = Date.now();
    const due = scanQueue(s.paths).entries.filter(
      (e) => (!e.item.notBefore || e.item.notBefore <= after) && !(skipServer && e.item.localSaved),
    );
    if (due.length === 0 || (skipServer && !s.apiUrl)) break;
    if (due.every((e) => report.failed.some((f) => f.thread === e.item.thread))) break;
  }
  if (engine) engine.close();
  for (const w of warm.values()) {
    try {
      writeCached(s, { agent: w.agent, project: w.project }, w.markdown, w.items);
    } catch {
      // the next session start builds it
    }
  }
  report.waiting = scanQueue(s.paths).entries.length;
  if (s.apiUrl && report.failed.length > 0 && readBreaker(s.paths.breaker, s.apiUrl).openUntil > Date.now())
    o.log('warn', `server ${s.apiUrl} unreachable; ${report.waiting} session(s) wait in the queue`);
  return report;
}
