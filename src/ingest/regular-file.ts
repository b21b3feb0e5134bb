/**
 * Opening a transcript safely. Only regular files are read: a `*.jsonl` that is (a symlink to) a
 * FIFO would block `open` forever and one to `/dev/zero` would be read forever, and search, MCP
 * and the server index first, so they would hang too. The file is opened with O_NONBLOCK (a FIFO
 * open returns at once) and its type is checked with fstat on the open descriptor, so a file
 * swapped between a check and the open cannot slip through.
 */
import { closeSync, constants, fstatSync, openSync, type Stats } from 'node:fs';

/** What a non-regular file is, for the message that says why it was skipped. */
export function fileKind(st: Stats): string {
  if (st.isFIFO()) return 'a FIFO';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  if (st.isDirectory()) return 'a directory';
  return 'not a regular file';
}

/** Thrown for a path that is not a regular file; the indexer reports it and goes on. */
export class NotRegularFileError extends Error {
  constructor(
    readonly path: string,
    readonly kind: string,
  ) {
    super(`not a regular file (${kind}); skipped`);
  }
}

/**
 * Open `path` for reading without ever blocking, and return the descriptor with its fstat; throws
 * NotRegularFileError (descriptor closed) when it is anything but a regular file.
 */
export function openRegularFile(path: string): { fd: number; st: Stats } {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new NotRegularFileError(path, fileKind(st));
    return { fd, st };
  } catch (e) {
    closeSync(fd);
    throw e;
  }
}

/** A UTF-8 byte-order mark some editors and tools write at the start of a file. */
export const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** `text` without a leading U+FEFF (a decoded BOM), which would make the first line unparseable. */
export const stripBom = (text: string) => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

/** A file error as a user reads it in a summary or `tapedeck doctor`. */
export function errorMessage(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  if (err?.code === 'EACCES' || err?.code === 'EPERM') return 'permission denied';
  if (err?.code === 'EISDIR') return 'is a directory';
  return err?.message ?? String(e);
}
