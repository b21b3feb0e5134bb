/**
 * The parse worker's side: files arrive as chunks the main thread read, leave as prepared batches
 * (ingest/file-parse.ts). Replies go through ingest/worker-channel.ts, so the synchronous indexer on the
 * main thread can block for them (ingest/parse-offload.ts).
 */
import type { MessagePort } from 'node:worker_threads';
import type { AgentId } from '../core/types.js';
import type { SourceAdapter } from '../ports/source.js';
import { type Flush, LinesParse, type ParseLimits, parseDocumentFile } from './file-parse.js';
import { type ChannelData, replier } from './worker-channel.js';

/** Main thread → worker. */
export type ToWorker =
  | { t: 'lines'; id: number; agent: AgentId; path: string; state: unknown; offset: number; lineNo: number }
  | { t: 'chunk'; id: number; buf: Uint8Array }
  | { t: 'end'; id: number }
  | { t: 'drop'; id: number }
  | { t: 'doc'; id: number; agent: AgentId; path: string; buf: Uint8Array };

/** Worker → main thread. `ack` hands a parsed chunk's buffer back (bounds what is in flight). */
export type FromWorker =
  | { t: 'flush'; id: number; flush: Flush }
  | { t: 'ack'; buf: Uint8Array }
  | { t: 'error'; id: number; message: string };

export interface ParseWorkerData extends ChannelData {
  limits: ParseLimits;
}

/** Serve parse requests from `inbox` until the thread is terminated. */
export function serveParseWorker(
  inbox: MessagePort,
  data: ParseWorkerData,
  adapters: readonly SourceAdapter[],
): void {
  const { limits } = data;
  const reply = replier<FromWorker>(data);
  const byId = new Map(adapters.map((a) => [a.id, a]));
  const files = new Map<number, LinesParse | null>();
  const failed = (id: number, e: unknown) => {
    files.set(id, null); // drop the rest of this file's chunks
    reply({ t: 'error', id, message: (e as Error)?.message ?? String(e) });
  };
  inbox.on('message', (m: ToWorker) => {
    switch (m.t) {
      case 'lines': {
        try {
          const adapter = byId.get(m.agent);
          if (!adapter) throw new Error(`no adapter for ${m.agent}`);
          const parse = new LinesParse(adapter, m.path, m.state, m.offset, m.lineNo, limits, (flush) =>
            reply({ t: 'flush', id: m.id, flush }),
          );
          files.set(m.id, parse);
        } catch (e) {
          failed(m.id, e);
        }
        break;
      }
      case 'chunk': {
        const parse = files.get(m.id);
        try {
          parse?.push(Buffer.from(m.buf.buffer, m.buf.byteOffset, m.buf.byteLength));
        } catch (e) {
          failed(m.id, e);
        }
        // The buffer goes back to be read into again: nothing here holds on to it (the splitter
        // copies a partial line), and chunk memory stays what is in flight.
        reply({ t: 'ack', buf: m.buf }, [m.buf.buffer as ArrayBuffer]);
        break;
      }
      case 'end': {
        const parse = files.get(m.id);
        files.delete(m.id);
        if (!parse) break; // failed: the error was the answer
        try {
          parse.finish(); // flushes once more: that flush is the file's last
        } catch (e) {
          reply({ t: 'error', id: m.id, message: (e as Error)?.message ?? String(e) });
        }
        break;
      }
      case 'drop':
        files.delete(m.id);
        break;
      case 'doc': {
        try {
          const adapter = byId.get(m.agent);
          if (!adapter) throw new Error(`no adapter for ${m.agent}`);
          const text = Buffer.from(m.buf.buffer, m.buf.byteOffset, m.buf.byteLength).toString('utf8');
          const flush = parseDocumentFile(adapter, m.path, text, m.buf.byteLength, limits.policy);
          reply({ t: 'flush', id: m.id, flush });
        } catch (e) {
          reply({ t: 'error', id: m.id, message: (e as Error)?.message ?? String(e) });
        }
        break;
      }
    }
  });
}
