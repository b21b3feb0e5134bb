/**
 * The main thread's side of the archive worker (ingest/archive-worker.ts). A capture takes over
 * the file's open descriptor: the worker reads it while this thread parses and writes, and the
 * descriptor is closed here once the worker has answered (never before: a closed descriptor's
 * number is reused by the next open, and the worker would read the wrong file). What is in flight
 * is bounded in files, so a slow archive holds back the reading, not the descriptors.
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
  /** Open captures: id → descriptor and path. */
  private readonly open = new Map<number, { fd: number; path: string }>();
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

  /** Archive the first `size` bytes of `fd`; the descriptor is this object's to close from now on. */
  capture(path: string, agent: AgentId, fd: number, size: number): number {
    while (this.open.size >= MAX_IN_FLIGHT) this.channel.receive(true);
    const id = this.nextId++;
    this.open.set(id, { fd, path });
    this.channel.worker.postMessage({ id, path, agent, fd, size });
    return id;
  }

  /** Block until capture `id` is answered (a cursor saying its file is indexed may then commit). */
  settle(id: number): void {
    while (this.open.has(id)) this.channel.receive(true);
  }

  /** Take the answers already there. */
  receive(): void {
    this.channel.receive(false);
  }

  /** Block until every capture is answered. */
  drain(): void {
    while (this.open.size > 0) this.channel.receive(true);
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
    if (!c) return;
    this.open.delete(id);
    closeQuietly(c.fd);
    if (message !== undefined) this.failed(c.path, message);
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed: nothing was lost
  }
}
