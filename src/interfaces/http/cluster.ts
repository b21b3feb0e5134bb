/**
 * `tapedeck serve --workers N`: N server processes on one port (node:cluster). The stores are
 * synchronous, so one process answers one request at a time; N processes, each with its own
 * engine (its own SQLite connection or PostgreSQL connection), answer N at once. The primary
 * holds the listening socket and hands connections to workers round-robin; it opens no store.
 *
 * Primary: forks the workers, prints one start line once every worker listens, restarts a worker
 * that dies (with a growing back-off, giving up with a reason when they crash-loop), and on
 * SIGINT/SIGTERM asks every worker to stop and exits once they have: each stops accepting,
 * finishes its requests in flight (bounded) and closes its store.
 *
 * Worker: starts the same HTTP server as a single process, reports `listening` or `failed`, and
 * stops gracefully when the primary asks, on its own SIGINT/SIGTERM (a terminal's Ctrl+C reaches
 * the whole process group), or when the primary is gone.
 */
import cluster, { type Worker } from 'node:cluster';
import { ERROR_CODES, type ErrorCode, TapedeckError } from '../../core/errors.js';

const SLOT_ENV = 'TAPEDECK_SERVE_WORKER';
const COUNT_ENV = 'TAPEDECK_SERVE_WORKERS';

type ToPrimary =
  | { tapedeck: 'listening'; url: string; requireKeys: boolean }
  | { tapedeck: 'failed'; code?: string; message: string }
  | { tapedeck: 'stopped'; drained: boolean };
type ToWorker = { tapedeck: 'stop'; signal: string };

/** This process is a `tapedeck serve` worker: its slot (1…N) and N; undefined in any other process. */
export function clusterWorker(): { slot: number; workers: number } | undefined {
  if (!cluster.isWorker || !process.env[SLOT_ENV]) return undefined;
  return { slot: Number(process.env[SLOT_ENV]), workers: Number(process.env[COUNT_ENV]) };
}

export interface RestartPolicy {
  /** First restart delay (default 250 ms), doubled for each further crash in the window. */
  baseMs?: number;
  /** Longest restart delay (default 10 s). */
  maxMs?: number;
  /** This many unexpected exits within `windowMs` is a crash loop: stop (default 5). */
  maxCrashes?: number;
  /** Default 60 s. */
  windowMs?: number;
}

export interface ClusterOptions {
  workers: number;
  /** Primary lines; workers log themselves (prefixed with their slot). */
  log: (line: string) => void;
  /** Stragglers are killed this long after a stop was asked (the workers' own drain bound + 5 s). */
  killAfterMs: number;
  restart?: RestartPolicy;
  /** Added to every worker's environment. */
  env?: Record<string, string>;
}

export interface RunningCluster {
  url: string;
  requireKeys: boolean;
  /** Ask every worker to stop; resolves when all have exited. Idempotent. */
  stop(signal: string): Promise<{ drained: boolean }>;
  /** Kill every worker at once (a second signal). */
  kill(): void;
  /** Settles when the cluster went down on its own (a crash loop), with why. */
  failed: Promise<{ reason: string }>;
}

/** Fork the workers; resolves once every one listens, rejects with the first worker's start error. */
export function startCluster({
  workers,
  log,
  killAfterMs,
  restart: { baseMs = 250, maxMs = 10_000, maxCrashes = 5, windowMs = 60_000 } = {},
  env = {},
}: ClusterOptions): Promise<RunningCluster> {
  const live = new Map<number, Worker>();
  /** Workers that said they listen: they heed a stop message (one still loading might not). */
  const ready = new Set<Worker>();
  const crashes: number[] = [];
  let stopping: Promise<{ drained: boolean }> | undefined;
  let drained = true;
  let started = false;
  let listening = 0;
  let first: { url: string; requireKeys: boolean } | undefined;
  let failCluster: (f: { reason: string }) => void = () => {};
  const failed = new Promise<{ reason: string }>((r) => {
    failCluster = r;
  });
  const allExited: Array<() => void> = [];
  const timers = new Set<NodeJS.Timeout>();

  return new Promise<RunningCluster>((resolve, reject) => {
    const giveUp = (err: Error) => {
      if (!started) {
        kill();
        reject(err);
      } else void stop('crash loop').then(() => failCluster({ reason: err.message }));
    };

    const fork = (slot: number) => {
      const w = cluster.fork({ ...env, [SLOT_ENV]: String(slot), [COUNT_ENV]: String(workers) });
      live.set(slot, w);
      w.on('message', (m: ToPrimary) => {
        if (m?.tapedeck === 'listening') {
          ready.add(w);
          if (stopping && w.isConnected()) w.send({ tapedeck: 'stop', signal: 'stop' } satisfies ToWorker);
          first ??= { url: m.url, requireKeys: m.requireKeys };
          if (!started && ++listening === workers) {
            started = true;
            resolve({ ...first, stop, kill, failed });
          }
        } else if (m?.tapedeck === 'failed') {
          const err = ERROR_CODES.includes(m.code as ErrorCode)
            ? new TapedeckError(m.code as ErrorCode, m.message)
            : new Error(m.message);
          // A worker that cannot start at first is a configuration problem: no point retrying.
          if (!started) giveUp(err);
          else log(`worker ${slot} could not start: ${m.message}`);
        } else if (m?.tapedeck === 'stopped' && !m.drained) drained = false;
      });
      w.on('exit', (code, signal) => {
        ready.delete(w);
        if (live.get(slot) === w) live.delete(slot);
        if (stopping) {
          if (live.size === 0) for (const done of allExited.splice(0)) done();
          return;
        }
        const how = signal ? `signal ${signal}` : `code ${code}`;
        if (!started) {
          // No-op when its `failed` message already rejected.
          giveUp(new Error(`worker ${slot} exited with ${how} before it could listen`));
          return;
        }
        const now = Date.now();
        crashes.push(now);
        while (crashes.length && now - crashes[0]! > windowMs) crashes.shift();
        if (crashes.length >= maxCrashes) {
          const reason = `workers crashed ${crashes.length} times in ${Math.round(windowMs / 1000)} s (last: worker ${slot}, ${how}); giving up`;
          log(reason);
          giveUp(new Error(reason));
          return;
        }
        const delay = Math.min(maxMs, baseMs * 2 ** (crashes.length - 1));
        log(`worker ${slot} (pid ${w.process.pid}) exited with ${how}; restarting in ${delay} ms`);
        const t = setTimeout(() => {
          timers.delete(t);
          if (!stopping) fork(slot);
        }, delay);
        timers.add(t);
      });
    };

    function stop(signal: string): Promise<{ drained: boolean }> {
      stopping ??= new Promise((done) => {
        for (const t of timers) clearTimeout(t);
        if (live.size === 0) return done({ drained });
        allExited.push(() => done({ drained }));
        const msg: ToWorker = { tapedeck: 'stop', signal };
        // A worker still starting has nothing in flight: a signal stops it (or it handles it).
        for (const w of live.values())
          if (ready.has(w) && w.isConnected()) w.send(msg);
          else w.process.kill('SIGTERM');
        setTimeout(() => {
          drained = false;
          for (const w of live.values()) w.process.kill('SIGKILL');
        }, killAfterMs).unref();
      });
      return stopping;
    }
    function kill() {
      stopping ??= Promise.resolve({ drained: false });
      for (const t of timers) clearTimeout(t);
      for (const w of live.values()) w.process.kill('SIGKILL');
    }

    for (let slot = 1; slot <= workers; slot++) fork(slot);
  });
}

export interface WorkerServer {
  url: string;
  requireKeys: boolean;
  /** Stop accepting, finish requests in flight, close the store. */
  close(): Promise<{ drained: boolean }>;
}

/**
 * The worker side: start the server, tell the primary, and stop gracefully on request. The
 * process exits 0 once stopped, 1 when it could not start (the primary reports why).
 */
export async function serveAsWorker(start: () => Promise<WorkerServer>): Promise<void> {
  const tell = (m: ToPrimary) =>
    new Promise<void>((sent) => {
      if (process.connected && process.send) process.send(m, undefined, {}, () => sent());
      else sent();
    });
  let server: WorkerServer | undefined;
  let asked = false;
  const stop = async () => {
    if (asked) process.exit(1); // a second signal: stop now
    asked = true;
    if (!server) return; // still starting: stops as soon as it has started
    const { drained } = await server.close();
    await tell({ tapedeck: 'stopped', drained });
    process.exit(0);
  };
  // Listen before starting: a stop asked while the store opens must not be lost.
  process.on('message', (m: ToWorker) => {
    if (m?.tapedeck === 'stop' && !asked) void stop();
  });
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  // The primary is gone (killed): don't linger as an orphan holding the store.
  process.on('disconnect', () => {
    if (!asked) void stop();
  });
  try {
    server = await start();
  } catch (e) {
    await tell({ tapedeck: 'failed', code: (e as TapedeckError).code, message: (e as Error).message });
    process.exit(1);
  }
  if (asked) {
    asked = false;
    return stop();
  }
  await tell({ tapedeck: 'listening', url: server.url, requireKeys: server.requireKeys });
}
