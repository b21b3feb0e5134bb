/**
 * The hook log: one line per event worth knowing (saves, fallbacks, failures) in
 * <tapedeck home>/hooks.log, rotated at 256 KiB (one old generation kept), and on stderr. Writing
 * the log never throws: a hook must answer its host even when the disk is full.
 */
import { appendFileSync, mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { OWNER_DIR, OWNER_FILE } from '../../core/owner-only.js';
import { redact } from '../../core/redact.js';

const MAX_BYTES = 256 * 1024;

export type Level = 'info' | 'warn' | 'error';

export type Logger = (level: Level, message: string) => void;

export function createLogger(path: string, tag: string, { stderr = true } = {}): Logger {
  return (level, message) => {
    // An error can quote what it failed on (a payload, a server's answer): no secret in the log.
    const clean = redact(message).text;
    const line = `${new Date().toISOString()} ${level.padEnd(5)} ${tag} ${clean.replace(/\s*\n\s*/g, ' ')}\n`;
    if (stderr && level !== 'info') {
      try {
        process.stderr.write(`tapedeck: ${clean}\n`);
      } catch {
        // stderr closed by the host
      }
    }
    try {
      const size = statSync(path, { throwIfNoEntry: false })?.size ?? 0;
      if (size > MAX_BYTES) renameSync(path, `${path}.1`);
      appendFileSync(path, line, { mode: OWNER_FILE });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
        try {
          mkdirSync(dirname(path), { recursive: true, mode: OWNER_DIR });
          writeFileSync(path, line, { flag: 'a', mode: OWNER_FILE });
        } catch {
          // nowhere to log: stderr had it
        }
      }
    }
  };
}
