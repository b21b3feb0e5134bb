/**
 * The transcript archive on disk (see ports/archive.ts), under `<tapedeck home>/archive/`:
 *
 *   blobs/<aa>/<sha256>.gz    one gzip-compressed 64 KiB piece of a file, named by the SHA-256
 *                             of its raw bytes: a piece already stored (the same transcript read
 *                             again, a copy of it elsewhere) is never written twice
 *   files/<key>.json          per transcript (key = SHA-1 of its path): its generations, each the
 *                             list of full pieces plus the trailing partial piece, compressed
 *                             inline (rewritten as the file grows: one file write per capture)
 *
 * A file that grows appends pieces: only the bytes past the last full piece are read and
 * compressed again. Writes are atomic (temp file + rename) and owner-only (0700 folders, 0600
 * files); a crash leaves at worst an unreferenced piece, never a manifest pointing at nothing.
 */
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { constants, gunzipSync, gzipSync } from 'node:zlib';
import type { AgentId } from '../../core/types.js';
import type { ArchiveEntry, ArchiveStats, TranscriptArchive } from '../../ports/archive.js';

/**
 * Piece size: small enough that re-compressing the growing tail after each append stays cheap
 * (a session that grows by a line costs at most 64 KiB of compression), large enough that a
 * big transcript is not thousands of files.
 */
export const PIECE_BYTES = 64 * 1024;
/**
 * zlib's fastest level: on transcripts (JSON lines) it compresses to about 21% against 18% for
 * the default level 6, at two to four times the speed (bench/archive.ts).
 */
const gzip = (raw: Uint8Array): Buffer => gzipSync(raw, { level: constants.Z_BEST_SPEED });
const HEAD_BYTES = 4096;

interface Generation {
  size: number;
  /** SHA-1 of the first `headLen` bytes: tells growth from a rewrite. */
  head: string;
  headLen: number;
  pieces: string[];
  /** The partial last piece: its size, hash and gzip bytes (base64). */
  tail: { size: number; sha256: string; gz: string } | null;
  startedAt: string;
  updatedAt: string;
}

interface Manifest {
  v: 1;
  path: string;
  agent: AgentId;
  generations: Generation[];
}

const newGeneration = (now: string): Generation => ({
  size: 0,
  head: '',
  headLen: 0,
  pieces: [],
  tail: null,
  startedAt: now,
  updatedAt: now,
});

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const sha1 = (s: string | Buffer) => createHash('sha1').update(s).digest('hex');

function readAt(fd: number, pos: number, len: number): Buffer {
  const buf = Buffer.allocUnsafe(len);
  let got = 0;
  while (got < len) {
    const n = readSync(fd, buf, got, len - got, pos + got);
    if (n === 0) break;
    got += n;
  }
  return buf.subarray(0, got);
}

/** Folders this process already made owner-only (a capture writes several files into each). */
const madePrivate = new Set<string>();

/** Create the folder owner-only, and tighten it if it already existed. */
function privateDir(dir: string): void {
  if (madePrivate.has(dir)) return;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  madePrivate.add(dir);
}

function writePrivate(path: string, data: Buffer | string, retry = true): void {
  privateDir(dirname(path));
  const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2, 8)}.tmp`;
  try {
    writeFileSync(tmp, data, { mode: 0o600 });
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    // The folder went away under a long-running process (someone deleted the archive): again.
    if (retry && (e as NodeJS.ErrnoException).code === 'ENOENT') {
      madePrivate.clear();
      writePrivate(path, data, false);
      return;
    }
    throw e;
  }
}

/** The archive at `dir` (created on first capture, owner-only). */
export function createFileArchive(dir: string): TranscriptArchive {
  const filesDir = join(dir, 'files');
  const keyOf = (path: string) => sha1(path);
  const manifestPath = (path: string) => join(filesDir, `${keyOf(path)}.json`);
  const blobPath = (hash: string) => join(dir, 'blobs', hash.slice(0, 2), `${hash}.gz`);

  function load(path: string): Manifest | undefined {
    try {
      const m = JSON.parse(readFileSync(manifestPath(path), 'utf8')) as Manifest;
      return m?.v === 1 && m.path === path ? m : undefined;
    } catch {
      return undefined;
    }
  }

  function putBlob(raw: Buffer): string {
    const hash = sha256(raw);
    const p = blobPath(hash);
    if (!existsSync(p)) writePrivate(p, gzip(raw));
    return hash;
  }

  function unpack(gz: () => Buffer, what: string, expect: string, size: number): Buffer {
    let raw: Buffer;
    try {
      raw = gunzipSync(gz());
    } catch (e) {
      throw new Error(`archive ${what} is missing or damaged (${(e as Error).message})`);
    }
    if (raw.length !== size || sha256(raw) !== expect)
      throw new Error(`archive ${what} does not match its hash`);
    return raw;
  }

  function walk(d: string): { bytes: number; manifests: string[] } {
    let bytes = 0;
    const manifests: string[] = [];
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return { bytes, manifests };
    }
    for (const e of entries) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        const sub = walk(p);
        bytes += sub.bytes;
        manifests.push(...sub.manifests);
      } else {
        bytes += statSync(p, { throwIfNoEntry: false })?.size ?? 0;
        if (d === filesDir && e.name.endsWith('.json')) manifests.push(p);
      }
    }
    return { bytes, manifests };
  }

  const readManifest = (file: string): Manifest | undefined => {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as Manifest;
    } catch {
      return undefined;
    }
  };

  return {
    dir,
    capture(path, agent, fd, size) {
      if (size === 0) return;
      const now = new Date().toISOString();
      const m: Manifest = load(path) ?? { v: 1, path, agent, generations: [] };
      let g = m.generations.at(-1);
      const head = readAt(fd, 0, Math.min(HEAD_BYTES, size));
      if (g && size === g.size && sha1(head.subarray(0, g.headLen)) === g.head) return; // archived
      if (g && (size < g.size || sha1(head.subarray(0, g.headLen)) !== g.head)) {
        // Rewritten from its start. Shorter: the old generation holds bytes the new one lacks, so
        // it stays. Not shorter (Gemini CLI rewrites its whole session document, header included,
        // on every message): the new one replaces it; unchanged pieces are shared anyway.
        const fresh = {
          size: 0,
          head: '',
          headLen: 0,
          pieces: [],
          tail: null,
          startedAt: now,
          updatedAt: now,
        };
        if (size < g.size) m.generations.push(fresh);
        else m.generations[m.generations.length - 1] = fresh;
        g = fresh;
      }
      if (!g) {
        g = newGeneration(now);
        m.generations.push(g);
      }
      // Re-read from the end of the last full piece: the old partial tail is extended, not kept.
      let pos = g.pieces.length * PIECE_BYTES;
      let tail: Buffer | null = null;
      while (pos < size) {
        const piece = readAt(fd, pos, Math.min(PIECE_BYTES, size - pos));
        if (piece.length === 0) break;
        pos += piece.length;
        if (piece.length === PIECE_BYTES) g.pieces.push(putBlob(piece));
        else tail = piece;
      }
      g.tail = tail ? { size: tail.length, sha256: sha256(tail), gz: gzip(tail).toString('base64') } : null;
      g.size = pos;
      g.head = sha1(head);
      g.headLen = head.length;
      g.updatedAt = now;
      m.agent = agent;
      writePrivate(manifestPath(path), JSON.stringify(m));
    },
    entry(path) {
      const m = load(path);
      const g = m?.generations.at(-1);
      if (!m || !g) return undefined;
      return {
        path: m.path,
        agent: m.agent,
        size: g.size,
        generations: m.generations.map((x) => ({
          size: x.size,
          startedAt: x.startedAt,
          updatedAt: x.updatedAt,
        })),
        updatedAt: g.updatedAt,
      } satisfies ArchiveEntry;
    },
    read(path, generation) {
      const m = load(path);
      if (!m || m.generations.length === 0) throw new Error(`${path} is not in the archive`);
      const n = generation ?? m.generations.length - 1;
      const g = m.generations[n];
      if (!g) throw new Error(`${path} has no archive generation ${n} (0–${m.generations.length - 1})`);
      const parts = g.pieces.map((h, i) =>
        unpack(() => readFileSync(blobPath(h)), `piece ${i} of ${path}`, h, PIECE_BYTES),
      );
      const tail = g.tail;
      if (tail)
        parts.push(unpack(() => Buffer.from(tail.gz, 'base64'), `tail of ${path}`, tail.sha256, tail.size));
      const out = Buffer.concat(parts);
      if (out.length !== g.size) throw new Error(`archive of ${path} is incomplete`);
      return out;
    },
    remove(path) {
      const m = load(path);
      if (!m) return false;
      unlinkSync(manifestPath(path));
      // Pieces no other transcript uses go too (they are shared when the bytes are the same).
      const used = new Set<string>();
      for (const f of walk(filesDir).manifests)
        for (const g of readManifest(f)?.generations ?? []) for (const h of g.pieces) used.add(h);
      for (const g of m.generations)
        for (const h of g.pieces) if (!used.has(h)) rmSync(blobPath(h), { force: true });
      return true;
    },
    stats(): ArchiveStats {
      const { bytes, manifests } = walk(dir);
      let originalBytes = 0;
      for (const f of manifests) originalBytes += readManifest(f)?.generations.at(-1)?.size ?? 0;
      return { dir, files: manifests.length, bytes, originalBytes };
    },
  };
}
