/** Run the built CLI as a real child process. */
import { type SpawnSyncOptions, spawnSync } from 'node:child_process';
import { join } from 'node:path';

export const BIN = join(import.meta.dirname, '..', '..', 'bin', 'tapedeck.js');

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
  json: () => any;
}

export function tapedeck(
  args: string[],
  env: Record<string, string>,
  options: SpawnSyncOptions = {},
): CliResult {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    env,
    encoding: 'utf8',
    timeout: 120_000,
    maxBuffer: 64 * 1024 * 1024,
    ...options,
  });
  const stdout = String(r.stdout ?? '');
  return {
    status: r.status,
    stdout,
    stderr: String(r.stderr ?? ''),
    json: () => JSON.parse(stdout),
  };
}

/** The uid and gid of `nobody`, which permission tests run as when the suite runs as root (root ignores modes). */
export const NOBODY = 65534;

let nobodyCheck: string | false | undefined;
/**
 * Why tests that run the CLI as `nobody` must be skipped here, or false when they can run: they need root
 * to switch users, and a checkout `nobody` can read — a clone inside a 0700 temp dir is not, and where the
 * checkout sits must never make a test fail.
 */
export function nobodySkipReason(): string | false {
  if (nobodyCheck !== undefined) return nobodyCheck;
  if (process.getuid?.() !== 0) nobodyCheck = 'needs root to run the CLI as nobody';
  else {
    const r = spawnSync(process.execPath, [BIN, '--version'], { uid: NOBODY, gid: NOBODY, encoding: 'utf8' });
    nobodyCheck =
      r.status === 0
        ? false
        : `nobody cannot run this checkout's CLI (is it inside a folder only its owner may enter?): ${
            String(r.stderr)
              .split('\n')
              .find((l) => /Error|EACCES/.test(l))
              ?.trim() ?? r.status
          }`;
  }
  return nobodyCheck;
}
