/**
 * Start a detached background process (the queue worker at session end, the skill sync at session
 * start): no stdio, its own session, never waited on. `node:child_process` is loaded here, on first
 * use (scripts/bundle.mjs LAZY_BUILTINS), so a hook that starts nothing does not pay for it.
 *
 * (Starting it through Node's internal process handle, `process.binding('process_wrap')`, saved
 * ~1.8 ms but crashed Node 24 on a native assertion — an internal binding's arguments are not an
 * API, and a crash cannot be caught and fallen back from. Kept out on purpose.)
 */
import { spawn } from 'node:child_process';

/** What starting a detached process gives back. */
export interface Detached {
  pid: number | undefined;
}

/**
 * Start `file args…` detached, with no stdio, in its own session, not holding this process open.
 * A start that fails (e.g. ENOENT) is reported to `onError`, as child_process tells it: an event.
 */
export function spawnDetached(
  file: string,
  args: string[],
  env: Record<string, string | undefined>,
  onError: (e: Error) => void,
): Detached {
  const child = spawn(file, args, { detached: true, stdio: 'ignore', env, windowsHide: true });
  child.on('error', onError);
  child.unref();
  return { pid: child.pid };
}
