/**
 * Reads complete lines from a file descriptor starting at a byte offset, in bounded chunks, so a
 * multi-gigabyte transcript or a 50 MB line never sits in memory whole. A line over the limit is
 * skipped (reported, not buffered); a last line without a newline is returned as the tail. A UTF-8
 * byte-order mark at the very start of the file is not part of the first line.
 * The splitting itself (`LineSplitter`) takes chunks pushed from anywhere, so the parse worker
 * splits the chunks the main thread read exactly as a file read here is split.
 */
import { isUtf8 } from 'node:buffer';
import { readSync } from 'node:fs';

export const CHUNK = 1 << 20;

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

function decode(buf: Buffer, from = 0, to = buf.length): { text: string; invalidUtf8: boolean } {
  const text = buf.toString('utf8', from, to);
  // toString replaces bad bytes with U+FFFD; only then pay for the exact check.
  return { text, invalidUtf8: text.includes('\uFFFD') && !isUtf8(buf.subarray(from, to)) };
}

/** Splits consecutive chunks of a file into lines; `pos` is the file offset of the next chunk. */
export class LineSplitter {
  private pieces: Buffer[] = [];
  private pending = 0;
  private overflow = false;
  /** Still at the file's first bytes, where a byte-order mark may sit. */
  private atStart: boolean;

  constructor(
    private pos: number,
    private lineNo: number,
    private readonly maxLineBytes: number,
  ) {
    this.atStart = pos === 0;
  }

  /** The lines completed by `buf[0, n)`. `buf` may be reused by the caller afterwards. */
  *push(buf: Buffer, n = buf.length): Generator<LineEvent> {
    let from = 0;
    if (this.atStart && n > 0) {
      this.atStart = false;
      // A UTF-8 BOM (EF BB BF) before the first line is not text (a BOM split across chunks of
      // under 3 bytes cannot happen: the reader's chunks are 1 MiB).
      if (n >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) from = 3;
    }
    while (from < n) {
      const nl = buf.indexOf(10, from);
      const stop = nl === -1 || nl >= n ? n : nl;
      const len = stop - from;
      const end = this.pos + stop + 1;
      if (stop === n) {
        // No newline in the rest of the chunk: keep the piece (copied: `buf` is reused).
        if (!this.overflow) {
          if (this.pending + len > this.maxLineBytes) {
            this.overflow = true;
            this.pieces = [];
          } else if (len > 0) this.pieces.push(Buffer.from(buf.subarray(from, stop)));
        }
        this.pending += len;
        break;
      }
      if (!this.overflow && this.pending + len > this.maxLineBytes) this.overflow = true;
      if (this.overflow) yield { kind: 'too-long', lineNo: this.lineNo, bytes: this.pending + len, end };
      else if (this.pieces.length === 0) {
        // The whole line is inside this chunk (the common case): decode it in place.
        const to = len > 0 && buf[stop - 1] === 13 ? stop - 1 : stop;
        yield { kind: 'line', ...decode(buf, from, to), lineNo: this.lineNo, end };
      } else {
        if (len > 0) this.pieces.push(buf.subarray(from, stop));
        const line = Buffer.concat(this.pieces, this.pending + len);
        const to = line.length > 0 && line[line.length - 1] === 13 ? line.length - 1 : line.length;
        yield { kind: 'line', ...decode(line, 0, to), lineNo: this.lineNo, end };
      }
      this.lineNo++;
      this.pieces = [];
      this.pending = 0;
      this.overflow = false;
      from = stop + 1;
    }
    this.pos += n;
  }

  /** What is left after the last chunk: the unterminated tail. */
  finish(): Tail {
    if (this.pending === 0 && !this.overflow) return { text: null, lineNo: this.lineNo, tooLong: false };
    if (this.overflow) return { text: null, lineNo: this.lineNo, tooLong: true };
    return {
      text: decode(Buffer.concat(this.pieces, this.pending)).text,
      lineNo: this.lineNo,
      tooLong: false,
    };
  }
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
  const splitter = new LineSplitter(start, firstLineNo, maxLineBytes);
  let pos = start;
  for (;;) {
    const n = readSync(fd, buf, 0, CHUNK, pos);
    if (n === 0) break;
    yield* splitter.push(buf, n);
    pos += n;
  }
  return splitter.finish();
}
