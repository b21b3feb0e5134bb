/**
 * `tapedeck restore`: write an archived transcript back, byte-identical, where its agent looks for
 * it (the thread's own source path: for Claude Code its project folder, so `claude --resume` finds
 * the session again) or where the user says. It never overwrites a different file unless forced.
 * Not a service on purpose: it writes files on this machine, so no HTTP or RPC route reaches it.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { notFound, TapedeckError } from '../core/errors.js';
import type { Engine } from './engine.js';

const conflict = (message: string) => new TapedeckError('CONFLICT', message);

export interface RestoreInput {
  thread: string;
  /** A file, or a folder to put the transcript in under its own name (default: where it was). */
  to?: string;
  /** Overwrite a different file already there. */
  force?: boolean;
  /** Which archived generation (default the latest; see `generations`). */
  generation?: number;
}

export interface RestoreResult {
  thread: string;
  path: string;
  bytes: number;
  generation: number;
  generations: number;
  /** False when the very same bytes were already there (nothing written). */
  written: boolean;
}

/** Write the thread's archived transcript back; see the module comment. */
export function restoreThread(engine: Engine, input: RestoreInput): RestoreResult {
  const archive = engine.archive;
  if (!archive)
    throw new TapedeckError(
      'UNSUPPORTED',
      engine.config.apiUrl
        ? 'restore works on this machine’s archive; run it with --local'
        : 'the transcript archive is turned off ("archive": false in config.json or TAPEDECK_ARCHIVE=0)',
    );
  const id = engine.transcripts.resolveThreadId(input.thread);
  const thread = engine.store.getThread(id)!;
  const entry = archive.entry(thread.source);
  if (!entry)
    throw notFound(
      `${id} has no archived copy (${thread.source} was never indexed with the archive on, or it was forgotten)`,
    );
  const generation = input.generation ?? entry.generations.length - 1;
  const bytes = archive.read(thread.source, generation);
  let dest = resolve(input.to ?? thread.source);
  if (input.to && statSync(dest, { throwIfNoEntry: false })?.isDirectory())
    dest = join(dest, basename(thread.source));
  const result = {
    thread: id,
    path: dest,
    bytes: bytes.length,
    generation,
    generations: entry.generations.length,
  };
  if (existsSync(dest)) {
    const there = statSync(dest);
    if (!there.isFile()) throw conflict(`${dest} exists and is not a regular file`);
    if (there.size === bytes.length && readFileSync(dest).equals(bytes)) return { ...result, written: false };
    if (!input.force)
      throw conflict(
        `${dest} exists and differs from the archived copy (${there.size} bytes there, ${bytes.length} archived); pass --force to overwrite it, or --to another path`,
      );
  }
  mkdirSync(dirname(dest), { recursive: true, mode: 0o700 });
  const tmp = `${dest}.tapedeck-restore-${process.pid}.tmp`;
  try {
    writeFileSync(tmp, bytes, { mode: 0o600 });
    renameSync(tmp, dest);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
  return { ...result, written: true };
}
