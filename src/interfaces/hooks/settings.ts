/**
 * Where the hook runtime keeps its files, and which server it talks to. Read without loading the
 * engine: TAPEDECK_HOME (or --home), TAPEDECK_API_URL / TAPEDECK_API_KEY, else `apiUrl` / `apiKey` in
 * <tapedeck home>/config.json.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export type Env = Readonly<Record<string, string | undefined>>;

/** How a session reaches a server: its own indexer reads the file, or the messages are pushed. */
export type CaptureMode = 'auto' | 'index' | 'push';

export interface HookSettings {
  tapedeckHome: string;
  env: Env;
  apiUrl?: string;
  apiKey?: string;
  capture: CaptureMode;
  /** A problem reading config.json (the hooks still run, on defaults). */
  configError?: string;
  paths: HookPaths;
}

export interface HookPaths {
  log: string;
  queue: string;
  processing: string;
  bad: string;
  failed: string;
  lock: string;
  dir: string;
  state: string;
  lastError: string;
  breaker: string;
  spawned: string;
  contextCache: string;
  injected: string;
}

export function hookPaths(tapedeckHome: string): HookPaths {
  const queue = join(tapedeckHome, 'queue');
  const dir = join(tapedeckHome, 'hooks');
  return {
    log: join(tapedeckHome, 'hooks.log'),
    queue,
    processing: join(queue, 'processing'),
    bad: join(queue, 'bad'),
    failed: join(queue, 'failed'),
    lock: join(queue, '.lock'),
    dir,
    state: join(dir, 'state.json'),
    lastError: join(dir, 'last-error.json'),
    breaker: join(dir, 'breaker.json'),
    spawned: join(dir, 'worker-spawned'),
    contextCache: join(dir, 'context'),
    injected: join(dir, 'injected'),
  };
}

export function readHookSettings(env: Env = process.env, homeFlag?: string): HookSettings {
  const home = resolve(env.HOME || homedir());
  const tapedeckHome = resolve(homeFlag ?? env.TAPEDECK_HOME ?? join(home, '.tapedeck'));
  let file: Record<string, unknown> = {};
  let configError: string | undefined;
  try {
    const v = JSON.parse(readFileSync(join(tapedeckHome, 'config.json'), 'utf8'));
    if (v && typeof v === 'object' && !Array.isArray(v)) file = v;
    else configError = 'config.json is not a JSON object';
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code !== 'ENOENT') configError = `config.json: ${err.message}`;
  }
  const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
  const apiUrl = str(env.TAPEDECK_API_URL) ?? str(file.apiUrl);
  const capture = str(env.TAPEDECK_CAPTURE) ?? str(file.capture);
  return {
    tapedeckHome,
    env,
    apiUrl: apiUrl?.replace(/\/+$/, ''),
    apiKey: str(env.TAPEDECK_API_KEY) ?? str(file.apiKey),
    capture: capture === 'index' || capture === 'push' ? capture : 'auto',
    configError,
    paths: hookPaths(tapedeckHome),
  };
}

/** A server on this machine reads the same transcript files; a remote one needs them pushed. */
export function isLoopbackUrl(url: string): boolean {
  try {
    const h = new URL(url).hostname.replace(/^\[|\]$/g, '');
    return h === 'localhost' || h === '::1' || /^127\./.test(h);
  } catch {
    return false;
  }
}
