/**
 * Reads complete lines from a file descriptor starting at a byte offset, in bounded chunks, so a
 * multi-gigabyte transcript or a 50 MB line never sits in memory whole. A line over the limit is
 * skipped (reported, not buffered); a last line without a newline is returned as the tail. A UTF-8
 * byte-order mark at the very start of the file is not part of the first line.
 */
import { isUtf8 } from 'node:buffer';
import { readSync } from 'node:fs';

const CHUNK = 1 << 20;

export type LineEvent =
  | { kind: 'line'; text: string; lineNo: number; end: number; invalidUtf8: boolean }
  | { kind: 'too-long'; lineNo: number; bytes: number; end: number };

export interface Tail {
  /** The unterminated last line, or null when the file ends with a newline. */
  text: string | null;
  lineNo: number;
  /** True when the unterminated tail was itself over the limit. */
  tooLong: boolean;
}

function decode(buf: Buffer): { text: string; invalidUtf8: boolean } {
  const text = buf.toString('utf8');
  // toString replaces bad bytes with U+FFFD; only then pay for the exact check.
  return { text, invalidUtf8: text.includes('\uFFFD') && !isUtf8(buf) };
}

/**
 * Yield each complete line after `start`. `firstLineNo` is the 1-based number of the first line
 * read. The generator's return value describes the unterminated tail.
 */
export function* readLines(
  fd: number,
  start: number,
  firstLineNo: number,
  maxLineBytes: number,
): Generator<LineEvent, Tail> {
  const buf = Buffer.allocUnsafe(CHUNK);
  let pos = start;
  let lineNo = firstLineNo;
  let pieces: Buffer[] = [];
  let pending = 0;
  let overflow = false;
  let first = start === 0;
  for (;;) {
    const n = readSync(fd, buf, 0, CHUNK, pos);
    if (n === 0) break;
    let from = 0;
    if (first && n >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) from = 3;
    first = false;
    while (from < n) {
      const nl = buf.indexOf(10, from);
      const stop = nl === -1 || nl >= n ? n : nl;
      const len = stop - from;
      if (!overflow) {
        if (pending + len > maxLineBytes) {
          overflow = true;
          pieces = [];
        } else if (len > 0) pieces.push(Buffer.from(buf.subarray(from, stop)));
      }
      pending += len;
      if (stop === n) break;
      const end = pos + stop + 1;
      if (overflow) yield { kind: 'too-long', lineNo, bytes: pending, end };
      else {
        const line = pieces.length === 1 ? pieces[0] : Buffer.concat(pieces, pending);
        const last = line.length > 0 && line[line.length - 1] === 13 ? line.subarray(0, -1) : line;
        yield { kind: 'line', ...decode(last), lineNo, end };
      }
      lineNo++;
      pieces = [];
      pending = 0;
      overflow = false;
      from = stop + 1;
    }
    pos += n;
  }
  if (pending === 0 && !overflow) return { text: null, lineNo, tooLong: false };
  if (overflow) return { text: null, lineNo, tooLong: true };
  return { text: decode(Buffer.concat(pieces, pending)).text, lineNo, tooLong: false };
}
