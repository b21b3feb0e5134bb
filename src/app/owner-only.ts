/**
 * Tightening a Tapedeck home to owner-only (0700 folders, 0600 files) when it is opened. New
 * homes are created so (core/owner-only.ts modes at every creation); a home that is not 0700 was
 * made by an older version or by hand, and is walked once: after that the home itself is 0700,
 * which keeps every other user out of everything under it, and each open costs one stat.
 */
import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { OWNER_DIR } from '../core/owner-only.js';

/** Files and folders whose mode was changed (what `doctor` could report). */
export interface TightenResult {
  changed: number;
}

function tighten(path: string, uid: number | undefined, out: TightenResult): void {
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(path);
  } catch {
    return;
  }
  // Symlinks are not followed (their target is not ours to change); another user's file neither.
  if (st.isSymbolicLink() || (uid !== undefined && st.uid !== uid)) return;
  const dir = st.isDirectory();
  if ((st.mode & 0o077) !== 0) {
    try {
      chmodSync(path, dir ? OWNER_DIR : st.mode & 0o700);
      out.changed++;
    } catch {
      // a read-only mount: nothing to do about it here
    }
  }
  if (dir) for (const name of readdirSync(path)) tighten(join(path, name), uid, out);
}

/**
 * Make `home` exist (0700) and, when it is open to others, tighten everything under it.
 * Never throws for a mode it cannot change: opening the store matters more.
 */
export function secureHome(home: string): TightenResult {
  const out: TightenResult = { changed: 0 };
  try {
    mkdirSync(home, { recursive: true, mode: OWNER_DIR });
    const st = lstatSync(home);
    if ((st.mode & 0o077) !== 0) tighten(home, process.getuid?.(), out);
  } catch {
    // unreadable or not creatable: the store's own open reports that clearly
  }
  return out;
}
