/**
 * Start a detached background process (the queue worker at session end, the skill sync at session
 * start) as cheaply as a hook can. `node:child_process` brings Node's whole stream and socket stack
 * with it (net, dgram, stream pipelines: ~3.5 ms of CPU to load, more than the spawn itself) for a
 * child that has no stdio and is never waited on. Node's own process handle (the `process_wrap`
 * binding that child_process is built on, still on process.binding's allow list) starts the same
 * process without any of that; where it is missing or refuses (a future Node), child_process is
 * used as before.
 */
import { spawn } from 'node:child_process';
import { getSystemErrorName } from 'node:util';

/** What starting a detached process gives back. */
export interface Detached {
  pid: number | undefined;
}

interface ProcessHandle {
  pid?: number;
  onexit: (code: number, signal: string) => void;
  spawn(options: {
    file: string;
    args: string[];
    envPairs: string[];
    stdio: { type: 'ignore' }[];
    detached: boolean;
    windowsHide: boolean;
  }): number;
  unref(): void;
}

/** Node's process handle class, or undefined when this Node does not offer it. */
function processHandle(): (new () => ProcessHandle) | undefined {
  try {
    const binding = (
      process as unknown as { binding(name: string): { Process?: new () => ProcessHandle } }
    ).binding('process_wrap');
    return typeof binding.Process === 'function' ? binding.Process : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Start `file args…` detached, with no stdio, in its own session, not holding this process open.
 * Throws when the process handle cannot start it (e.g. ENOENT); on the child_process path a failed
 * start is reported to `onError` instead (child_process tells it as an event).
 */
export function spawnDetached(
  file: string,
  args: string[],
  env: Record<string, string | undefined>,
  onError: (e: Error) => void,
): Detached {
  const Handle = processHandle();
  if (Handle) {
    const handle = new Handle();
    handle.onexit = () => {}; // never waited on: unref'd below
    const envPairs = Object.entries(env)
      .filter((e): e is [string, string] => e[1] !== undefined)
      .map(([k, v]) => `${k}=${v}`);
    const err = handle.spawn({
      file,
      args: [file, ...args],
      envPairs,
      stdio: [{ type: 'ignore' }, { type: 'ignore' }, { type: 'ignore' }],
      detached: true,
      windowsHide: true,
    });
    if (err !== 0) {
      const code = getSystemErrorName(err);
      throw Object.assign(new Error(`spawn ${file} ${code}`), { code });
    }
    handle.unref();
    return { pid: handle.pid };
  }
  // The bundle loads node:child_process only here, on first use (scripts/bundle.mjs LAZY_BUILTINS).
  const child = spawn(file, args, { detached: true, stdio: 'ignore', env, windowsHide: true });
  child.on('error', onError);
  child.unref();
  return { pid: child.pid };
}
