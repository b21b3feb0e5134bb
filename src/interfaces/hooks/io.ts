/**
 * The hook's contract with its host: read stdin (bounded in size and time), print exactly one JSON
 * document on stdout, and never outlive the budget. stdout is written with a synchronous write to
 * fd 1, so the answer is out before the process exits on any platform.
 */
import { fstatSync, read, writeSync } from 'node:fs';

const MAX_STDIN = 8 * 1024 * 1024;

/** Everything on stdin until EOF, `deadlineMs`, or 8 MiB; '' for a terminal or a closed stdin. */
export function readStdin(deadlineMs: number): Promise<string> {
  return new Promise((resolve) => {
    try {
      if (fstatSync(0).isCharacterDevice()) return resolve('');
    } catch {
      return resolve('');
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const timer = setTimeout(finish, deadlineMs);
    timer.unref();
    const buf = Buffer.alloc(64 * 1024);
    const next = () =>
      read(0, buf, 0, buf.length, null, (err, n) => {
        if (err || n === 0 || done) return finish();
        chunks.push(Buffer.from(buf.subarray(0, n)));
        size += n;
        if (size >= MAX_STDIN) return finish();
        next();
      });
    next();
  });
}

let printed = false;

/** Print the host's answer once; later calls are ignored (the budget timer and the work race). */
export function emit(value: unknown): boolean {
  if (printed) return false;
  printed = true;
  const data = Buffer.from(`${JSON.stringify(value)}\n`);
  let off = 0;
  for (let tries = 0; off < data.length && tries < 1000; tries++) {
    try {
      off += writeSync(1, data, off);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') return false;
    }
  }
  return true;
}

export const alreadyPrinted = () => printed;
