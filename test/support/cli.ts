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
