/**
 * The archive offload shares a transcript's open descriptor with the archive worker: it must stay
 * open until both the indexer (release) and the worker (its answer) are done with it, in either
 * order. A 1M-step first index lost 7 files to EBADF when an answer closed a file the indexer was
 * still reading. Real files, the real archive and channel; the worker runs on this thread (a
 * thread cannot load TypeScript under tsx), answering as soon as a capture is posted.
 */
import assert from 'node:assert/strict';
import { fstatSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ArchiveOffload } from '../src/ingest/archive-offload.js';
import type { ArchiveWorkerData, CaptureDone, CaptureRequest } from '../src/ingest/archive-worker.js';
import type { SpawnParseWorker } from '../src/ingest/parse-offload.js';
import { replier } from '../src/ingest/worker-channel.js';
import { createFileArchive } from '../src/storage/archive/file-archive.js';

/** The archive worker's service, answering on this thread as soon as a capture is posted. */
const sameThread: SpawnParseWorker = (data) => {
  const d = data as ArchiveWorkerData;
  const reply = replier<CaptureDone>(d);
  const archive = createFileArchive(d.archiveDir);
  return {
    postMessage: (m) => {
      const { id, path, agent, fd, size } = m as CaptureRequest;
      archive.capture(path, agent, fd, size);
      reply({ id });
    },
    terminate: () => d.port.close(),
    unref: () => {},
  };
};

const isOpen = (fd: number) => {
  try {
    fstatSync(fd);
    return true;
  } catch (e) {
    assert.equal((e as NodeJS.ErrnoException).code, 'EBADF');
    return false;
  }
};

test('a descriptor stays open until the indexer and the archive worker are both done with it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tapedeck-archive-offload-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const files = [0, 1].map((i) => {
    const path = join(dir, `t${i}.jsonl`);
    writeFileSync(path, `${JSON.stringify({ n: i, text: 'x'.repeat(200_000) })}\n`);
    return path;
  });
  const failed: string[] = [];
  const offload = new ArchiveOffload(sameThread, join(dir, 'archive'), (path) => failed.push(path));
  try {
    // Answered first (the worker was quick), released after: open until the release.
    const a = openSync(files[0], 'r');
    const idA = offload.capture(files[0], 'claude-code', a, 200_000 + 20);
    offload.settle(idA);
    assert.ok(isOpen(a), 'answered but still being read: open');
    offload.release(idA);
    assert.ok(!isOpen(a), 'both done: closed');

    // Released first (the indexer was quick), answered after: open until the answer.
    const b = openSync(files[1], 'r');
    const idB = offload.capture(files[1], 'claude-code', b, 200_000 + 20);
    offload.release(idB);
    offload.drain();
    assert.ok(!isOpen(b), 'both done: closed');
  } finally {
    offload.close();
  }
  assert.deepEqual(failed, []);
  const archive = createFileArchive(join(dir, 'archive'));
  for (const p of files) assert.ok(archive.read(p).equals(readFileSync(p)));
});
