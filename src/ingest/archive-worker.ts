/**
 * The archive worker's side: it copies transcripts into the archive (gzip, hashes, file writes) on
 * a thread of its own, so a first index pays for the archive on neither the thread that writes the
 * index nor the one that parses. It reads each file through the descriptor the main thread opened
 * (threads share the process's descriptors); the main thread closes it after the answer
 * (ingest/archive-offload.ts).
 */
import type { MessagePort } from 'node:worker_threads';
import type { AgentId } from '../core/types.js';
import type { TranscriptArchive } from '../ports/archive.js';
import { errorMessage } from './regular-file.js';
import { type ChannelData, replier } from './worker-channel.js';

/** Main thread → worker: archive the first `size` bytes of the open descriptor `fd`. */
export interface CaptureRequest {
  id: number;
  path: string;
  agent: AgentId;
  fd: number;
  size: number;
}

/** Worker → main thread: done (`message` says why not). */
export interface CaptureDone {
  id: number;
  message?: string;
}

export interface ArchiveWorkerData extends ChannelData {
  /** The archive's folder (ports/archive.ts `dir`). */
  archiveDir: string;
}

/** Serve capture requests from `inbox` until the thread is terminated. */
export function serveArchiveWorker(
  inbox: MessagePort,
  data: ArchiveWorkerData,
  archive: TranscriptArchive,
): void {
  const reply = replier<CaptureDone>(data);
  inbox.on('message', ({ id, path, agent, fd, size }: CaptureRequest) => {
    try {
      archive.capture(path, agent, fd, size);
      reply({ id });
    } catch (e) {
      reply({ id, message: errorMessage(e) });
    }
  });
}
