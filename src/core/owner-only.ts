/**
 * Modes of everything Tapedeck creates under its home: owner-only. The home holds every prompt,
 * answer and tool output of the user's agents, the owner token and the raw archive; another user
 * of the machine must not read any of it (issue 11 §3). Files are created with these modes from
 * the start (not chmod-ed afterwards, which would leave a window), and existing homes are
 * tightened when opened (app/owner-only.ts).
 */

/** rw------- */
export const OWNER_FILE = 0o600;
/** rwx------ */
export const OWNER_DIR = 0o700;
