/**
 * `tapedeck serve`: the HTTP server until SIGINT/SIGTERM, then a graceful stop (requests in flight
 * finish, bounded) and the engine closed. One line on stderr at start; stdout stays empty.
 * `--workers N` (N > 1) runs N server processes on the port (http/cluster.ts): this process
 * becomes the primary, and each worker re-enters here through `clusterWorker()`.
 */
import { createServer } from 'node:net';
import { availableParallelism } from 'node:os';
import type { Engine } from '../../../app/engine.js';
import { invalidInput } from '../../../core/errors.js';
import { redact } from '../../../core/redact.js';
import { clusterWorker, serveAsWorker, startCluster } from '../../http/cluster.js';
import { checkBind, DEFAULT_HOST, startHttpServer } from '../../http/server.js';
import { type GlobalFlags, intOption, openEngine } from '../context.js';
import { queueStateOf } from './queue-state.js';

export interface ServeFlags extends GlobalFlags {
  host?: string;
  port?: string;
  refresh?: string;
  logRequests?: boolean;
  shutdownTimeout?: string;
  workers?: string;
}

/** The port the primary chose for its workers (it wins over --port 0). */
const PORT_ENV = 'TAPEDECK_SERVE_PORT';

const freePort = (host: string) =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, host, () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** Logs never carry a secret (an error can quote a request's input). */
const log = (line: string) => process.stderr.write(`tapedeck serve: ${redact(line).text}\n`);

const storeOf = (engine: Engine) =>
  engine.stats().backend === 'postgres' ? engine.stores.location : engine.config.dbPath;
const keysNote = (requireKeys: boolean) =>
  requireKeys ? 'every request needs an API key' : 'keyless for this user (owner token), keys accepted';

function workerCount(value: string | undefined): number {
  if (value === 'auto') return availableParallelism();
  const n = intOption('workers', value, 1) ?? 1;
  if (n > 64) throw invalidInput(`--workers must be at most 64 (or auto), got ${n}`);
  return n;
}

export async function runServe(f: ServeFlags): Promise<void> {
  const port = intOption('port', f.port, 0);
  const refreshMs = intOption('refresh', f.refresh, 0) ?? 2000;
  const shutdownTimeoutMs = intOption('shutdown-timeout', f.shutdownTimeout, 0) ?? 10_000;
  const options = { host: f.host, port, refreshMs, shutdownTimeoutMs, logRequests: !!f.logRequests };
  const worker = clusterWorker();
  if (worker) return runWorker(f, options, worker);
  const workers = workerCount(f.workers);
  if (workers > 1) return runPrimary(f, options, workers);

  const engine = openEngine(f, { local: true });
  let server: Awaited<ReturnType<typeof startHttpServer>>;
  try {
    server = await startHttpServer(engine, {
      ...options,
      log,
      queueState: queueStateOf(engine.config.tapedeckHome),
    });
  } catch (e) {
    engine.close();
    throw e;
  }
  log(`listening on ${server.url} (store ${storeOf(engine)}; ${keysNote(server.requireKeys)})`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      log(`${signal} again: stopping now`);
      process.exit(1);
    }
    stopping = true;
    const { drained } = await server.close();
    engine.close();
    log(
      drained
        ? `stopped (${signal})`
        : `stopped (${signal}); connections still open after ${shutdownTimeoutMs} ms were cut`,
    );
    process.exitCode = 0;
    setTimeout(() => process.exit(0), 1000).unref();
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

type ServeOptions = {
  host?: string;
  port?: number;
  refreshMs: number;
  shutdownTimeoutMs: number;
  logRequests: boolean;
};

/**
 * The primary opens the store once before forking (so migrations run once, not raced by N
 * workers) and refuses a bad bind up front; then it holds no store connection of its own.
 */
async function runPrimary(f: ServeFlags, o: ServeOptions, workers: number): Promise<void> {
  const engine = openEngine(f, { local: true });
  let store: string;
  try {
    await checkBind(o.host ?? DEFAULT_HOST, engine);
    store = storeOf(engine);
  } finally {
    engine.close();
  }
  // Port 0 is resolved here, once: should every worker die at the same moment, node:cluster
  // closes the shared socket, and a restarted worker asking for port 0 would get another port.
  const port = o.port === 0 ? await freePort(o.host ?? DEFAULT_HOST) : o.port;
  const c = await startCluster({
    workers,
    log,
    killAfterMs: o.shutdownTimeoutMs + 5000,
    env: port === undefined ? {} : { [PORT_ENV]: String(port) },
  });
  log(`listening on ${c.url} (store ${store}; ${keysNote(c.requireKeys)}; ${workers} workers)`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      log(`${signal} again: stopping now`);
      c.kill();
      process.exit(1);
    }
    stopping = true;
    const { drained } = await c.stop(signal);
    log(
      drained
        ? `stopped (${signal})`
        : `stopped (${signal}); connections still open after ${o.shutdownTimeoutMs} ms were cut`,
    );
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  void c.failed.then(({ reason }) => {
    log(`stopped: ${reason}`);
    process.exit(1);
  });
}

/**
 * One worker: the single-process server over its own engine. Only worker 1 refreshes the
 * transcript index (before its own transcript reads, and every refresh interval in the
 * background so the other workers' reads stay as fresh), so N workers never race to index.
 */
async function runWorker(
  f: ServeFlags,
  o: ServeOptions,
  { slot, workers }: { slot: number; workers: number },
): Promise<void> {
  const wlog = (line: string) => process.stderr.write(`tapedeck serve [worker ${slot}]: ${line}\n`);
  await serveAsWorker(async () => {
    const engine = openEngine(f, { local: true });
    const indexer = slot === 1 && o.refreshMs > 0;
    let server: Awaited<ReturnType<typeof startHttpServer>>;
    try {
      server = await startHttpServer(engine, {
        ...o,
        port: process.env[PORT_ENV] ? Number(process.env[PORT_ENV]) : o.port,
        refreshMs: indexer ? o.refreshMs : 0,
        workers,
        log: wlog,
        queueState: queueStateOf(engine.config.tapedeckHome),
      });
    } catch (e) {
      engine.close();
      throw e;
    }
    const tick = indexer
      ? setInterval(() => {
          try {
            engine.transcripts.index();
          } catch (e) {
            wlog(`index refresh failed: ${(e as Error).message}`);
          }
        }, o.refreshMs)
      : undefined;
    tick?.unref();
    return {
      url: server.url,
      requireKeys: server.requireKeys,
      async close() {
        clearInterval(tick);
        const r = await server.close();
        engine.close();
        return r;
      },
    };
  });
}
