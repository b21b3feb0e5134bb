/** Shared per-invocation setup for commands: config from global flags, and the engine. */
import { loadBackends } from '../../app/backends.js';
import { loadConfig } from '../../app/config.js';
import { connectEngine, type Engine, type EngineOptions } from '../../app/engine.js';
import { invalidInput } from '../../core/errors.js';

export interface GlobalFlags {
  home?: string;
  db?: string;
  apiUrl?: string;
  apiKey?: string;
  /** Ignore a configured server: work on the local store. */
  local?: boolean;
  json?: boolean;
}

/**
 * The engine for a command: the Tapedeck server in client mode (--api-url / TAPEDECK_API_URL), else
 * the local store; `local` keeps it local whatever is configured (`tapedeck serve`).
 */
export function openEngine(flags: GlobalFlags, options?: EngineOptions & { local?: boolean }): Engine {
  return connectEngine(
    loadConfig({ home: flags.home, db: flags.db, apiUrl: flags.apiUrl, apiKey: flags.apiKey }),
    { ...options, local: options?.local || flags.local },
  );
}

/**
 * Load the backend modules the configuration names (PostgreSQL stores, the server client) before a
 * command opens its engine; SQLite users load neither. A configuration that does not load is left
 * for the command itself to report (not every command needs one).
 */
export async function loadBackendsFor(flags: GlobalFlags): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig({ home: flags.home, db: flags.db, apiUrl: flags.apiUrl, apiKey: flags.apiKey });
  } catch {
    return;
  }
  await loadBackends(config);
}

/** Parse an integer option, rejecting junk with a usage error. */
export function intOption(name: string, value: string | undefined, min = 0): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw invalidInput(`--${name} must be a whole number ≥ ${min}, got "${value}"`);
  return n;
}
