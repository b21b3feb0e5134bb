/** Test support: `tapedeck serve` as a real child process on a free loopback port. */
import { type ChildProcess, spawn } from 'node:child_process';
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
