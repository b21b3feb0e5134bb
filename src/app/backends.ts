/**
 * The backends only some users need — the PostgreSQL stores (a team server) and the client of a
 * remote Tapedeck server — loaded when a configuration names them, so a SQLite user's command
 * never loads their modules (a `tapedeck search` pays for every module it loads).
 *
 * Entry points (the CLI's action wrapper, hooks, MCP stdio) `await loadBackends(config)` before
 * building the engine: in the bundled CLI each backend is then its own chunk. Other callers
 * (tests, benchmarks, the unbundled dist/) get a backend synchronously on first use through
 * `require` of the ES module (Node ≥ 20.19), which is why the engine can stay synchronous.
 */
import { createRequire } from 'node:module';
import { TapedeckError } from '../core/errors.js';
import type { TapedeckConfig } from './config.js';

type PostgresBackend = typeof import('../storage/postgres/stores.js');
type RemoteBackend = typeof import('./remote/remote-engine.js');

let postgres: PostgresBackend | undefined;
let remote: RemoteBackend | undefined;

/** Load what `config` names: the PostgreSQL stores for a database URL, the client for an API URL. */
export async function loadBackends(config: Pick<TapedeckConfig, 'databaseUrl' | 'apiUrl'>): Promise<void> {
  if (config.databaseUrl) postgres ??= await import('../storage/postgres/stores.js');
  if (config.apiUrl) remote ??= await import('./remote/remote-engine.js');
}

/** The PostgreSQL stores module (loaded by `loadBackends`, or now). */
export function postgresBackend(): PostgresBackend {
  postgres ??= requireModule<PostgresBackend>('../storage/postgres/stores.js', 'PostgreSQL');
  return postgres;
}

/** The remote-server client module (loaded by `loadBackends`, or now). */
export function remoteBackend(): RemoteBackend {
  remote ??= requireModule<RemoteBackend>('./remote/remote-engine.js', 'client-mode');
  return remote;
}

function requireModule<T>(specifier: string, what: string): T {
  try {
    return createRequire(import.meta.url)(specifier) as T;
  } catch (e) {
    // In the bundled CLI the module is a chunk only `loadBackends` can reach: an entry point that
    // forgot to call it is a bug to report, not a missing feature.
    throw new TapedeckError(
      'STORAGE_UNAVAILABLE',
      `The ${what} backend could not be loaded (${(e as Error).message.split('\n')[0]}); this needs Node.js 20.19 or newer, or loadBackends() before the engine is built`,
    );
  }
}
