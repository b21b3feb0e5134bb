/**
 * The transcript archive on disk (see ports/archive.ts), under `<tapedeck home>/archive/`:
 *
 *   blobs/<aa>/<sha256>.gz    one gzip-compressed 256 KiB piece of a file, named by the SHA-256
 *                             of its raw bytes: a piece already stored (the same transcript read
 *                             again, a copy of it elsewhere) is never written twice
 *   files/<key>.json          per transcript (key = SHA-1 of its path): its generations, each the
 *                             list of full pieces plus the trailing partial piece
 *   files/<key>.<n>.tail.gz   the partial last piece of generation n (rewritten as the file grows)
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
import { gunzipSync, gzipSync } from 'node:zlib';
import type { AgentId } from '../../core/types.js';
import type { ArchiveEntry, ArchiveStats, TranscriptArchive } from '../../ports/archive.js';

/** Piece size: small enough that re-compressing the growing tail stays cheap. */
export const PIECE_BYTES = 256 * 1024;
const HEAD_BYTES = 4096;

interface Generation {
  size: number;
  /** SHA-1 of the first `headLen` bytes: tells growth from a rewrite. */
  head: string;
  headLen: number;
  pieces: string[];
  tail: { size: number; sha256: string } | null;
  startedAt: string;
  updatedAt: string;
}

interface Manifest {
  v: 1;
  path: string;
  agent: AgentId;
  generations: Generation[];
}

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

/** Create the folder owner-only, and tighten it if it already existed. */
function privateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

function writePrivate(path: string, data: Buffer | string): void {
  privateDir(dirname(path));
  const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2, 8)}.tmp`;
  try {
    writeFileSync(tmp, data, { mode: 0o600 });
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/** The archive at `dir` (created on first capture, owner-only). */
export function createFileArchive(dir: string): TranscriptArchive {
  const filesDir = join(dir, 'files');
  const keyOf = (path: string) => sha1(path);
  const manifestPath = (path: string) => join(filesDir, `${keyOf(path)}.json`);
  const tailPath = (path: string, gen: number) => join(filesDir, `${keyOf(path)}.${gen}.tail.gz`);
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
    if (!existsSync(p)) writePrivate(p, gzipSync(raw));
    return hash;
  }

  function unpack(file: string, what: string, expect: string, size: number): Buffer {
    let raw: Buffer;
    try {
      raw = gunzipSync(readFileSync(file));
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
      if (g && (size < g.size || sha1(head.subarray(0, g.headLen)) !== g.head)) g = undefined;
      if (g && size === g.size) return; // already archived
      if (!g) {
        g = { size: 0, head: '', headLen: 0, pieces: [], tail: null, startedAt: now, updatedAt: now };
        m.generations.push(g);
      }
      const gen = m.generations.length - 1;
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
      if (tail) writePrivate(tailPath(path, gen), gzipSync(tail));
      else rmSync(tailPath(path, gen), { force: true });
      g.tail = tail ? { size: tail.length, sha256: sha256(tail) } : null;
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
      const parts = g.pieces.map((h, i) => unpack(blobPath(h), `piece ${i} of ${path}`, h, PIECE_BYTES));
      if (g.tail) parts.push(unpack(tailPath(path, n), `tail of ${path}`, g.tail.sha256, g.tail.size));
      const out = Buffer.concat(parts);
      if (out.length !== g.size) throw new Error(`archive of ${path} is incomplete`);
      return out;
    },
    remove(path) {
      const m = load(path);
      if (!m) return false;
      unlinkSync(manifestPath(path));
      m.generations.forEach((_g, i) => void rmSync(tailPath(path, i), { force: true }));
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
