/** Test support: `tapedeck serve` as a real child process on a free loopback port. */
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readLocalToken } from '../../src/app/local-token.js';
import { BIN } from './cli.js';

export interface ServeProcess {
  url: string;
  /** The owner token the server created in its home (keyless requests must carry it). */
  token: string;
  /** Headers that carry the owner token. */
  owner: { authorization: string };
  child: ChildProcess;
  stderr(): string;
  stdout(): string;
  /** The exit code (null when killed by a signal), once it has exited. */
  exited: Promise<number | null>;
  /** SIGTERM, then resolve when it has exited. */
  stop(): Promise<void>;
}

/** Start `tapedeck serve --port 0 …args` (e.g. `['--workers', '2']`); resolve once it logs that it listens. */
export function startServe(env: Record<string, string>, args: string[] = []): Promise<ServeProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    let out = '';
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.stdout!.on('data', (d) => {
      out += String(d);
    });
    const timer = setTimeout(() => reject(new Error(`tapedeck serve did not start: ${err}`)), 30_000);
    child.stderr!.on('data', (d) => {
      err += String(d);
      const m = /listening on (http:\/\/[^\s]+)/.exec(err);
      if (m && timer.hasRef()) {
        clearTimeout(timer);
        timer.unref();
        const home = env.TAPEDECK_HOME ?? join(env.HOME ?? '', '.tapedeck');
        const token = readLocalToken(home) ?? '';
        resolve({
          url: m[1]!,
          token,
          owner: { authorization: `Bearer ${token}` },
          child,
          stderr: () => err,
          stdout: () => out,
          exited,
          stop: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null || child.signalCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`tapedeck serve exited with ${code}: ${err}`));
    });
  });
}

/** A client-mode CLI's environment against `server`: another home, holding the owner token the server created. */
export interface ClientHome {
  root: string;
  env: Record<string, string>;
  cleanup(): void;
}

export function ownerClient(server: ServeProcess, serverTapedeckHome: string): ClientHome {
  const root = mkdtempSync(join(tmpdir(), 'tapedeck-client-'));
  const env = {
    HOME: join(root, 'home'),
    TAPEDECK_HOME: join(root, 'tapedeck'),
    PATH: process.env.PATH ?? '',
    TAPEDECK_API_URL: server.url,
  };
  // The client stands for the owner with another Tapedeck home: it holds the owner token the
  // server created (a keyless loopback server answers nobody else).
  mkdirSync(env.TAPEDECK_HOME, { recursive: true, mode: 0o700 });
  copyFileSync(join(serverTapedeckHome, 'local-token'), join(env.TAPEDECK_HOME, 'local-token'));
  return { root, env, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}
