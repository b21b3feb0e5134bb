/**
 * The main thread's side of the archive worker (ingest/archive-worker.ts). A capture shares the
 * file's open descriptor: the worker reads it while this thread parses and writes, and it is
 * closed only once both are done with it (`release` from the indexer, the answer from the
 * worker). Never before: an answer can arrive while the indexer is still reading the file (a
 * commit between two of its chunks takes every answer there), and a closed descriptor's number is
 * reused by the next open, so either side would read the wrong file. What is in flight is bounded
 * in files, so a slow archive holds back the reading, not the descriptors.
 */
import { closeSync } from 'node:fs';
import type { AgentId } from '../core/types.js';
import type { ArchiveWorkerData, CaptureDone, CaptureRequest } from './archive-worker.js';
import type { SpawnParseWorker } from './parse-offload.js';
import { WorkerChannel } from './worker-channel.js';

/** Captures posted and not yet answered, at most (each holds a descriptor open). */
const MAX_IN_FLIGHT = 32;

export class ArchiveOffload {
  private readonly channel: WorkerChannel<CaptureRequest, CaptureDone>;
  /** Captures whose descriptor is open: id → descriptor, path, and who is done with it. */
  private readonly open = new Map<
    number,
    { fd: number; path: string; answered: boolean; released: boolean }
  >();
  /** Captures not answered yet. */
  private unanswered = 0;
  private nextId = 1;

  constructor(
    spawn: SpawnParseWorker,
    archiveDir: string,
    /** A capture that failed (a full disk): reported, never stops indexing. */
    private readonly failed: (path: string, message: string) => void,
  ) {
    this.channel = new WorkerChannel<CaptureRequest, CaptureDone>(
      (data, transfer) => spawn({ ...data, archiveDir } satisfies ArchiveWorkerData, transfer),
      'archive worker',
      (m) => this.done(m),
    );
  }

  /**
   * Archive the first `size` bytes of `fd`. From now on the descriptor is this object's to close:
   * the caller says `release(id)` instead of closing it.
   */
  capture(path: string, agent: AgentId, fd: number, size: number): number {
    while (this.unanswered >= MAX_IN_FLIGHT) this.channel.receive(true);
    const id = this.nextId++;
    this.open.set(id, { fd, path, answered: false, released: false });
    this.unanswered++;
    this.channel.worker.postMessage({ id, path, agent, fd, size });
    return id;
  }

  /** The indexer is done reading capture `id`'s file. */
  release(id: number): void {
    const c = this.open.get(id);
    if (!c) return;
    c.released = true;
    if (c.answered) this.forget(id, c.fd);
  }

  /** Block until capture `id` is answered (a cursor saying its file is indexed may then commit). */
  settle(id: number): void {
    while (this.open.get(id)?.answered === false) this.channel.receive(true);
  }

  /** Take the answers already there. */
  receive(): void {
    this.channel.receive(false);
  }

  /** Block until every capture is answered. */
  drain(): void {
    while (this.unanswered > 0) this.channel.receive(true);
  }

  /**
   * Stop the worker. Descriptors of captures still open (a run that failed) are closed only once
   * its thread has stopped reading them.
   */
  close(): void {
    const left = [...this.open.values()];
    this.open.clear();
    void this.channel.close().finally(() => {
      for (const { fd } of left) closeQuietly(fd);
    });
  }

  private done({ id, message }: CaptureDone): void {
    const c = this.open.get(id);
    if (!c || c.answered) return;
    c.answered = true;
    this.unanswered--;
    if (c.released) this.forget(id, c.fd);
    if (message !== undefined) this.failed(c.path, message);
  }

  private forget(id: number, fd: number): void {
    this.open.delete(id);
    closeQuietly(fd);
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed: nothing was lost
  }
}
