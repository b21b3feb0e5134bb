/**
 * `tapedeck ui`: make sure a Tapedeck server answers on 127.0.0.1:<port> for this home (reuse one
 * that accepts this home's token; else start `tapedeck serve` detached, logging to
 * <home>/ui-server.log), then print `http://127.0.0.1:<port>/#token=<token>` — and open it when a
 * display is at hand. The token sits in the fragment, which browsers never send to a server.
 * With nothing indexed and no transcripts on this machine, the server shows the bundled sample
 * sessions (the quickstart's demo store). In client mode the configured server's page is linked.
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig, type TapedeckConfig } from '../../../app/config.js';
import { createEngine } from '../../../app/engine.js';
import { ensureLocalToken } from '../../../app/local-token.js';
import { packagePath } from '../../../app/package-path.js';
import { TapedeckError } from '../../../core/errors.js';
import { DEFAULT_PORT } from '../../http/server.js';
import { type GlobalFlags, intOption } from '../context.js';
import { print, printJson, tildify, warn } from '../output.js';
import { EXAMPLES_HOME } from './quickstart.js';

export interface UiFlags extends GlobalFlags {
  port?: string;
  /** commander's --no-open sets this to false. */
  open?: boolean;
}

const BIN = packagePath('bin', 'tapedeck.js');
const START_TIMEOUT_MS = 20_000;

type Probe = { state: 'ours'; store: string } | { state: 'foreign'; status: number } | { state: 'down' };

/** Whether a server on the port accepts this home's token (it is ours), refuses it, or is not there. */
async function probe(base: string, token: string): Promise<Probe> {
  try {
    const r = await fetch(`${base}/health`, {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(2000),
    });
    if (r.status !== 200) return { state: 'foreign', status: r.status };
    const body = (await r.json()) as { status?: string; store?: { path?: string } };
    return body.status === 'ok'
      ? { state: 'ours', store: body.store?.path ?? '' }
      : { state: 'foreign', status: 200 };
  } catch {
    return { state: 'down' };
  }
}

/** Serve the bundled samples when this machine has nothing to show (a fresh install). */
function demoStore(config: TapedeckConfig): string | undefined {
  const engine = createEngine(config);
  let empty: boolean;
  try {
    const onDisk = Object.values(engine.locate()).reduce((n, files) => n + files.length, 0);
    empty = onDisk === 0 && engine.stats().threads === 0;
  } finally {
    engine.close();
  }
  if (!empty) return undefined;
  const dbPath = join(config.tapedeckHome, 'demo', 'tapedeck.db');
  const demo = createEngine({ ...config, dbPath }, { locateHome: EXAMPLES_HOME });
  try {
    demo.transcripts.index();
  } finally {
    demo.close();
  }
  return dbPath;
}

function startServer(f: UiFlags, config: TapedeckConfig, port: number, db: string | undefined) {
  const args = [BIN];
  if (f.home) args.push('--home', f.home);
  if (db) args.push('--db', db);
  args.push('serve', '--port', String(port));
  // The samples never change; refreshing would look for transcripts in the real home.
  if (db && f.db === undefined) args.push('--refresh', '0');
  mkdirSync(config.tapedeckHome, { recursive: true, mode: 0o700 });
  const logPath = join(config.tapedeckHome, 'ui-server.log');
  const log = openSync(logPath, 'a', 0o600);
  const child = spawn(process.execPath, args, { detached: true, stdio: ['ignore', 'ignore', log] });
  closeSync(log);
  child.unref();
  return { child, logPath };
}

/** Open the link in a browser when there is a display to show it on; never fails the command. */
function openBrowser(url: string): boolean {
  const cmd =
    process.platform === 'darwin'
      ? 'open'
      : process.platform === 'linux' && (process.env.DISPLAY || process.env.WAYLAND_DISPLAY)
        ? 'xdg-open'
        : undefined;
  if (!cmd) return false;
  try {
    const p = spawn(cmd, [url], { detached: true, stdio: 'ignore' });
    p.on('error', () => undefined);
    p.unref();
    return true;
  } catch {
    return false;
  }
}

export async function runUi(f: UiFlags): Promise<void> {
  const config = loadConfig({ home: f.home, db: f.db, apiUrl: f.apiUrl, apiKey: f.apiKey });
  if (config.apiUrl && !f.local) {
    // Client mode: the page of the configured server, signed in with the configured key.
    const base = config.apiUrl.replace(/\/+$/, '');
    const url = config.apiKey ? `${base}/#token=${encodeURIComponent(config.apiKey)}` : `${base}/`;
    const opened = f.open !== false && !f.json && openBrowser(url);
    if (f.json) return printJson({ url, remote: true, started: false, opened });
    print(url);
    if (!config.apiKey) warn('No API key configured: the page asks for one (TAPEDECK_API_KEY).');
    return;
  }
  const port = intOption('port', f.port, 1) ?? DEFAULT_PORT;
  if (port > 65535) throw new TapedeckError('INVALID_INPUT', `--port must be at most 65535, got ${port}`);
  const base = `http://127.0.0.1:${port}`;
  const token = ensureLocalToken(config.tapedeckHome);
  let found = await probe(base, token);
  let started: { pid: number | undefined; demo: boolean } | undefined;
  if (found.state === 'foreign')
    throw new TapedeckError(
      'CONFLICT',
      `Port ${port} answers ${found.status} to this home's token: another program, or another user's or home's Tapedeck server, has it. Pick another with --port.`,
    );
  if (found.state === 'down') {
    const db = f.db ?? demoStore(config);
    const { child, logPath } = startServer(f, config, port, db);
    let exited: number | null = null;
    child.once('exit', (code) => {
      exited = code ?? 1;
    });
    const until = Date.now() + START_TIMEOUT_MS;
    while (found.state !== 'ours' && exited === null && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
      found = await probe(base, token);
    }
    if (found.state !== 'ours') {
      let tail = '';
      try {
        tail = readFileSync(logPath, 'utf8').trim().split('\n').slice(-3).join('\n');
      } catch {
        // no log yet
      }
      throw new TapedeckError(
        'STORAGE_UNAVAILABLE',
        `The local server did not come up on ${base}${exited !== null ? ` (it exited with ${exited})` : ''}; see ${tildify(logPath)}${tail ? `:\n${tail}` : ''}`,
      );
    }
    started = { pid: child.pid, demo: db !== undefined && f.db === undefined };
  }
  const url = `${base}/#token=${token}`;
  const opened = f.open !== false && !f.json && openBrowser(url);
  const store = found.state === 'ours' ? found.store : '';
  if (f.json)
    return printJson({
      url,
      port,
      started: !!started,
      pid: started?.pid ?? null,
      demo: !!started?.demo,
      store,
      opened,
    });
  warn(
    started
      ? `tapedeck ui: started a server on ${base} (pid ${started.pid}; store ${tildify(store)}${started.demo ? ', the bundled sample sessions' : ''}); stop it with kill ${started.pid}`
      : `tapedeck ui: using the server already on ${base} (store ${tildify(store)})`,
  );
  print(url);
}
