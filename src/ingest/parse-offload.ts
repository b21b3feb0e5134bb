/**
 * The main thread's side of the parse worker: files are posted as chunks (their buffers moved, not
 * copied) and come back as prepared batches, while the main thread goes on reading the next file
 * and writing earlier batches. The indexer is synchronous, so waiting for a reply blocks on a
 * shared counter the worker raises after each one; what is in flight is bounded in bytes of chunk
 * buffers, so a slow worker holds back the reading instead of filling memory.
 */
import type { MessagePort } from 'node:worker_threads';
import { markRedacted } from '../core/redact-record.js';
import type { AgentId } from '../core/types.js';
import type { ArchiveWorkerData } from './archive-worker.js';
import type { Flush, ParseLimits } from './file-parse.js';
import type { FromWorker, ParseWorkerData, ToWorker } from './parse-worker.js';
import { WorkerChannel, type WorkerHandle } from './worker-channel.js';

/**
 * Starts a thread running app/parse-worker.ts with this data (the port moved): the parse worker
 * (ingest/parse-worker.ts), or, given `archiveDir`, the archive worker (ingest/archive-worker.ts).
 * One entry file for both, so the bundled CLI ships one worker file.
 */
export type SpawnParseWorker = (
  data: ParseWorkerData | ArchiveWorkerData,
  transfer: MessagePort[],
) => WorkerHandle<unknown>;

export interface OffloadHandlers {
  flush(id: number, flush: Flush): void;
  error(id: number, message: string): void;
}

/**
 * Chunk buffer bytes posted but not yet parsed, at most. Counted by buffer size, not by the bytes
 * a chunk holds: a small file's one chunk still takes a whole buffer, and counting its bytes let
 * hundreds of buffers be in flight at once (53 MB for the 10k corpus's small files).
 */
const MAX_IN_FLIGHT = 8 << 20;

export class ParseOffload {
  private readonly channel: WorkerChannel<ToWorker, FromWorker>;
  private readonly worker: WorkerHandle<ToWorker>;
  private inFlight = 0;
  private readonly open = new Set<number>();
  private readonly dropped = new Set<number>();
  private nextId = 1;
  /** Chunk buffers the worker has handed back. */
  private readonly pool: ArrayBuffer[] = [];

  constructor(
    spawn: SpawnParseWorker,
    limits: ParseLimits,
    private readonly on: OffloadHandlers,
  ) {
    this.channel = new WorkerChannel<ToWorker, FromWorker>(
      (data, transfer) => spawn({ ...data, limits }, transfer),
      'parse worker',
      (m) => this.handle(m),
    );
    this.worker = this.channel.worker;
  }

  /** Files sent and not yet answered in full. */
  get pending(): number {
    return this.open.size;
  }

  /** Start a `lines` file; its chunks follow with `chunk`, then `end`. Returns its id. */
  startLines(agent: AgentId, path: string, state: unknown, offset: number, lineNo: number): number {
    const id = this.nextId++;
    this.open.add(id);
    this.worker.postMessage({ t: 'lines', id, agent, path, state, offset, lineNo });
    return id;
  }

  /** A buffer of `size` bytes to read a chunk into (one the worker handed back, if any). */
  buffer(size: number): Buffer {
    const ab = this.pool.pop();
    return ab && ab.byteLength === size ? Buffer.from(ab) : Buffer.allocUnsafeSlow(size);
  }

  /** A buffer from `buffer()` that was not sent after all. */
  giveBack(buf: Buffer): void {
    this.pool.push(buf.buffer as ArrayBuffer);
  }

  /** The next bytes of file `id`; `buf` is moved to the worker (it must own its ArrayBuffer). */
  chunk(id: number, buf: Uint8Array): void {
    while (this.inFlight > MAX_IN_FLIGHT) this.receive(true);
    this.inFlight += buf.buffer.byteLength;
    this.worker.postMessage({ t: 'chunk', id, buf }, [buf.buffer as ArrayBuffer]);
    this.receive(false);
  }

  end(id: number): void {
    this.worker.postMessage({ t: 'end', id });
  }

  /** Give up on file `id` (reading it failed): nothing more is reported for it. */
  drop(id: number): void {
    this.open.delete(id);
    this.dropped.add(id);
    this.worker.postMessage({ t: 'drop', id });
  }

  /** A whole `document` file (moved, like a chunk). */
  document(agent: AgentId, path: string, buf: Uint8Array): number {
    const id = this.nextId++;
    this.open.add(id);
    // No receive() here: the caller has not recorded the id yet, and the answer can be quick.
    this.worker.postMessage({ t: 'doc', id, agent, path, buf }, [buf.buffer as ArrayBuffer]);
    return id;
  }

  /** Handle the replies already there (`wait`: block for at least one). */
  receive(wait: boolean): void {
    this.channel.receive(wait);
  }

  /** Block until every file sent is answered. */
  drain(): void {
    while (this.open.size > 0) this.receive(true);
  }

  close(): void {
    void this.channel.close();
  }

  private handle(m: FromWorker): void {
    if (m.t === 'ack') {
      this.inFlight -= m.buf.buffer.byteLength;
      this.pool.push(m.buf.buffer as ArrayBuffer);
    } else if (this.dropped.has(m.id)) {
      // a reply already under way when the file was dropped
    } else if (m.t === 'error') {
      this.open.delete(m.id);
      this.on.error(m.id, m.message);
    } else {
      if (m.flush.final) this.open.delete(m.id);
      // The worker made these steps with prepareStep, which redacted them; the copy that crossed
      // the thread boundary lost that mark, so it is set again here (core/redact-record.ts).
      for (const o of m.flush.ops) if (o.type === 'step' && o.prepared) markRedacted(o.prepared);
      this.on.flush(m.id, m.flush);
    }
  }
}
