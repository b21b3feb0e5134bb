/**
 * `hippo serve`: the HTTP server until SIGINT/SIGTERM, then a graceful stop (requests in flight
 * finish, bounded) and the engine closed. One line on stderr at start; stdout stays empty.
 */
import { startHttpServer } from '../../http/server.js';
import { type GlobalFlags, intOption, openEngine } from '../context.js';

export interface ServeFlags extends GlobalFlags {
  host?: string;
  port?: string;
  refresh?: string;
  logRequests?: boolean;
  shutdownTimeout?: string;
}

const log = (line: string) => process.stderr.write(`hippo serve: ${line}\n`);

export async function runServe(f: ServeFlags): Promise<void> {
  const port = intOption('port', f.port, 0);
  const refreshMs = intOption('refresh', f.refresh, 0) ?? 2000;
  const shutdownTimeoutMs = intOption('shutdown-timeout', f.shutdownTimeout, 0) ?? 10_000;
  const engine = openEngine(f, { local: true });
  let server: Awaited<ReturnType<typeof startHttpServer>>;
  try {
    server = await startHttpServer(engine, {
      host: f.host,
      port,
      refreshMs,
      shutdownTimeoutMs,
      logRequests: !!f.logRequests,
      log,
    });
  } catch (e) {
    engine.close();
    throw e;
  }
  log(
    `listening on ${server.url} (store ${engine.stats().backend === 'postgres' ? engine.stores.location : engine.config.dbPath}; ${server.requireKeys ? 'every request needs an API key' : 'keyless from this machine, keys accepted'})`,
  );

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
