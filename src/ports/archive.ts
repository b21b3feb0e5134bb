import type { AgentId } from '../core/types.js';

/** One archived transcript: the latest generation and how many earlier ones are kept. */
export interface ArchiveEntry {
  /** The transcript's path when it was archived (where `restore` puts it back by default). */
  path: string;
  agent: AgentId;
  /** Bytes of the latest generation (the original file's size). */
  size: number;
  /** Generations kept: a file rewritten from its start begins a new one; the old stays. */
  generations: { size: number; startedAt: string; updatedAt: string }[];
  updatedAt: string;
}

export interface ArchiveStats {
  /** The archive folder. */
  dir: string;
  /** Transcripts archived. */
  files: number;
  /** Bytes on disk (compressed chunks, tails and manifests). */
  bytes: number;
  /** Bytes of the original files (latest generations), for the compression ratio. */
  originalBytes: number;
}

/**
 * A compressed, deduplicated copy of every transcript Tapedeck indexes, kept under its home, so a
 * transcript the agent deletes can be written back byte-identical. The archive holds the user's
 * raw files: owner-only, never exported, never served.
 */
export interface TranscriptArchive {
  readonly dir: string;
  /**
   * Bring the copy of `path` up to the first `size` bytes of the open descriptor `fd`: appends
   * what grew; a file rewritten from its start (shorter, or other first bytes) begins a new
   * generation and the previous one stays. Throws on a write failure (the caller reports it).
   */
  capture(path: string, agent: AgentId, fd: number, size: number): void;
  /** The archived copy of `path`, if any. */
  entry(path: string): ArchiveEntry | undefined;
  /**
   * The original bytes of a generation (default: the latest), each piece checked against its
   * hash; throws when a piece is missing or damaged.
   */
  read(path: string, generation?: number): Buffer;
  /** Drop the copy of `path` (every generation); false when there was none. */
  remove(path: string): boolean;
  stats(): ArchiveStats;
}
