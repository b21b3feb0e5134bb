/** Shared per-invocation setup for commands: config from global flags, and the engine. */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadBackends } from '../../app/backends.js';
import { loadConfig, type TapedeckConfig } from '../../app/config.js';
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
  /** Set by the action wrapper for commands that only read (see `READ_ONLY` in define.ts). */
  readOnly?: boolean;
}

export interface OpenOptions extends EngineOptions {
  /** Work on the local store whatever server is configured (`tapedeck serve`). */
  local?: boolean;
  /**
   * The command only reads: when the local SQLite store does not exist yet, answer from an empty
   * one in memory instead of creating the home and the database (`tapedeck stats` on a fresh
   * machine must leave it as it was).
   */
  read?: boolean;
}

/** Engines standing in for a store that does not exist yet, with the path it would have. */
const standIns = new WeakMap<Engine, string>();

/**
 * The engine for a command: the Tapedeck server in client mode (--api-url / TAPEDECK_API_URL), else
 * the local store.
 */
export function openEngine(flags: GlobalFlags, { read, ...options }: OpenOptions = {}): Engine {
  const config = loadConfig({ home: flags.home, db: flags.db, apiUrl: flags.apiUrl, apiKey: flags.apiKey });
  const local = options.local || flags.local;
  if ((read || flags.readOnly) && localStoreMissing(config, local)) {
    const engine = connectEngine({ ...config, dbPath: ':memory:' }, { ...options, local: true });
    standIns.set(engine, config.dbPath);
    return engine;
  }
  return connectEngine(config, { ...options, local });
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

/** The store is a local SQLite file that has never been created (a server always exists). */
function localStoreMissing(config: TapedeckConfig, local: boolean | undefined): boolean {
  if (config.apiUrl && !local) return false;
  return !config.databaseUrl && config.dbPath !== ':memory:' && !existsSync(config.dbPath);
}

/**
 * Where the store would be when `engine` stands in for one that does not exist yet (nothing
 * indexed or saved on this machine); undefined for a real store.
 */
export function missingStorePath(engine: Engine): string | undefined {
  return standIns.get(engine);
}

/** A `--project` directory as an absolute path: `.` and relative paths are read from the cwd. */
export const projectOption = (dir: string | undefined): string | undefined =>
  dir === undefined || dir === '' ? undefined : resolve(dir);

/** Parse an integer option, rejecting junk with a usage error. */
export function intOption(name: string, value: string | undefined, min = 0): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw invalidInput(`--${name} must be a whole number ≥ ${min}, got "${value}"`);
  return n;
}
