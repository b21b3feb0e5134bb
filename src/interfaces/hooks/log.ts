/**
 * The hook log: one line per event worth knowing (saves, fallbacks, failures) in
 * <tapedeck home>/hooks.log, rotated at 256 KiB (one old generation kept), and on stderr. Writing
 * the log never throws — a hook must answer its host even when the disk is full — but a log that
 * cannot be written says so on stderr, and its lines go there instead. Lines are redacted: an error
 * can quote what it failed on (a payload, a server's answer).
 */
import { appendFileSync, mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { OWNER_DIR, OWNER_FILE } from '../../core/owner-only.js';
import { redact } from '../../core/redact.js';
import { errorText } from './files.js';

const MAX_BYTES = 256 * 1024;

export type Level = 'info' | 'warn' | 'error';

export type Logger = (level: Level, message: string) => void;

export function createLogger(path: string, tag: string, { stderr = true } = {}): Logger {
  // Once the log cannot be written (a full disk, a read-only home), every line goes to stderr
  // instead, after one line saying why: a failure to log is never silent.
  let broken = false;
  const toStderr = (text: string) => {
    try {
      process.stderr.write(text);
    } catch {
      // stderr closed by the host
    }
  };
  const append = (line: string) => {
    try {
      const size = statSync(path, { throwIfNoEntry: false })?.size ?? 0;
      if (size > MAX_BYTES) renameSync(path, `${path}.1`);
      appendFileSync(path, line, { mode: OWNER_FILE });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      mkdirSync(dirname(path), { recursive: true, mode: OWNER_DIR });
      writeFileSync(path, line, { flag: 'a', mode: OWNER_FILE });
    }
  };
  return (level, raw) => {
    const message = redact(raw).text;
    const line = `${new Date().toISOString()} ${level.padEnd(5)} ${tag} ${message.replace(/\s*\n\s*/g, ' ')}\n`;
    const shown = stderr && level !== 'info';
    if (shown) toStderr(`tapedeck: ${message}\n`);
    if (!broken) {
      try {
        append(line);
        return;
      } catch (e) {
        broken = true;
        toStderr(`tapedeck: cannot write ${path} (${errorText(e)}); log lines go to stderr only\n`);
      }
    }
    if (!shown) toStderr(`tapedeck: ${level}: ${message}\n`);
  };
}
