/**
 * A channel to a helper thread that the synchronous indexer can block on. The worker posts each
 * reply on a MessageChannel port and raises a shared counter; the main thread takes replies with
 * receiveMessageOnPort and, when it must wait, sleeps on the counter (Atomics.wait). Used by the
 * parse worker (ingest/parse-offload.ts) and the archive worker (ingest/archive-offload.ts).
 */
import { createRequire } from 'node:module';
import type { MessagePort } from 'node:worker_threads';

/** The smallest part of a worker thread the offloads need (node:worker_threads' Worker has it). */
export interface WorkerHandle<In> {
  postMessage(message: In, transfer?: ArrayBuffer[]): void;
  /** node:worker_threads' Worker returns a promise that settles when the thread has stopped. */
  terminate(): unknown;
  unref(): void;
}

/** What every helper thread is started with: where to reply, and the counter to raise. */
export interface ChannelData {
  port: MessagePort;
  /** Raised after every reply. */
  signal: SharedArrayBuffer;
}

/** No reply for this long means the worker is gone. */
const STALL_MS = 120_000;

// Loaded on first use: most runs (every `tapedeck search`) never start a worker, and the module
// costs a few milliseconds of a command's start.
type Threads = typeof import('node:worker_threads');
let threads: Threads | undefined;
export const workerThreads = (): Threads =>
  (threads ??= createRequire(import.meta.url)('node:worker_threads') as Threads);

/** The main thread's end: start the worker with `spawn`, then take its replies with `receive`. */
export class WorkerChannel<In, Out> {
  private readonly port: MessagePort;
  private readonly flag: Int32Array;
  readonly worker: WorkerHandle<In>;

  constructor(
    spawn: (data: ChannelData, transfer: MessagePort[]) => WorkerHandle<In>,
    private readonly what: string,
    private readonly handle: (m: Out) => void,
  ) {
    const { port1, port2 } = new (workerThreads().MessageChannel)();
    const signal = new SharedArrayBuffer(4);
    this.port = port1;
    this.flag = new Int32Array(signal);
    this.worker = spawn({ port: port2, signal }, [port2]);
    this.worker.unref();
  }

  /** Handle the replies already there (`wait`: block for at least one). */
  receive(wait: boolean): void {
    let got = false;
    let since = Date.now();
    for (;;) {
      const seen = Atomics.load(this.flag, 0);
      const m = workerThreads().receiveMessageOnPort(this.port);
      if (m) {
        got = true;
        this.handle(m.message as Out);
        continue;
      }
      if (!wait || got) return;
      // The flag can be seen raised before the message can be taken: recheck every few ms.
      if (Atomics.wait(this.flag, 0, seen, 5) === 'timed-out' && Date.now() - since > STALL_MS)
        throw new Error(`the ${this.what} did not answer for ${STALL_MS / 1000} s`);
      if (Atomics.load(this.flag, 0) !== seen) since = Date.now();
    }
  }

  /** Stop the worker; resolves when its thread has stopped. */
  close(): Promise<unknown> {
    this.port.close();
    return Promise.resolve(this.worker.terminate());
  }
}

/** The worker's end: a reply function that posts `m` and wakes a main thread waiting for it. */
export function replier<Out>({ port, signal }: ChannelData): (m: Out, transfer?: ArrayBuffer[]) => void {
  const flag = new Int32Array(signal);
  return (m, transfer = []) => {
    port.postMessage(m, transfer);
    Atomics.add(flag, 0, 1);
    Atomics.notify(flag, 0);
  };
}
