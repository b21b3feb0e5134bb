/**
 * The ingest pipeline: locate every transcript, skip what has not changed (one stat per file),
 * resume grown files from their saved offset and parser state, re-index rewritten ones, and mark
 * the threads of deleted or truncated ones (their steps stay: history is never lost with a file).
 * Only regular files are opened, never blocking; each file read is also copied to the archive.
 * Writes go in bounded batches, each in one transaction with the cursor it covers, so a run
 * killed at any point resumes with nothing lost or duplicated.
 */
import { createHash } from 'node:crypto';
import { closeSync, readdirSync, readSync, type Stats, statSync } from 'node:fs';
import { basename, dirname, extname } from 'node:path';
import { isTapedeckError } from '../core/errors.js';
import { fnv1a } from '../core/hash.js';
import { tryParseJson } from '../core/text.js';
import { type AgentId, type ParseIssue, seqOf, type ThreadMeta } from '../core/types.js';
import type { TranscriptArchive } from '../ports/archive.js';
import type { LocateEnv, SourceAdapter, TranscriptFile } from '../ports/source.js';
import type { FileCursor, TranscriptStore, TranscriptWriter } from '../ports/transcript-store.js';
import { ArchiveOffload } from './archive-offload.js';
import { BufferedSink } from './buffered-sink.js';
import { type Flush, LinesParse, type ParseLimits, parseDocumentFile } from './file-parse.js';
import { CHUNK } from './line-reader.js';
import { linkNeighbours } from './neighbours.js';
import { ParseOffload, type SpawnParseWorker } from './parse-offload.js';
import { DEFAULT_POLICY, type IndexPolicy } from './prepare-step.js';

type CursorHead = Omit<FileCursor, 'state'>;

import { errorMessage, fileKind, NotRegularFileError, openRegularFile } from './regular-file.js';

const HEAD_BYTES = 4096;
/** A run with at least this many files to read from the start uses the parse worker. */
const OFFLOAD_MIN_FILES = 8;

export interface IndexerOptions {
  store: TranscriptStore;
  adapters: readonly SourceAdapter[];
  env: LocateEnv;
  policy?: IndexPolicy;
  /** Steps buffered before a transaction is committed. */
  batchSteps?: number;
  /** A line longer than this is skipped and reported. */
  maxLineBytes?: number;
  /** A `document` file larger than this is skipped and reported. */
  maxDocumentBytes?: number;
  /**
   * Starts a thread that parses and prepares steps while this one reads files and writes, and one
   * that fills the archive (a first index runs on three threads). Without it everything runs
   * inline.
   */
  spawnParseWorker?: SpawnParseWorker;
  /** Files with fewer unread bytes than this are parsed inline (a worker's start costs more). */
  offloadMinBytes?: number;
  /** Where a copy of every transcript read is kept (absent: no archive). */
  archive?: TranscriptArchive;
}

export interface IndexRunOptions {
  agents?: AgentId[];
  /** Re-read every file from the start. */
  full?: boolean;
  /** After each file: files done of `total`, and the transcript bytes read so far by this run. */
  onProgress?: (done: number, total: number, path: string, bytesRead: number) => void;
  /**
   * Stop starting new files after this many milliseconds (the MCP server's refresh before an
   * answer); what is left is picked up by the next run. `pending` in the summary says how much.
   */
  budgetMs?: number;
  /**
   * The cheap pass before an MCP answer: reuse this process's last directory listing for up to a
   * minute, and stat transcripts untouched for an hour only every five minutes. `tapedeck index`
   * and `tapedeck search` always do the full pass.
   */
  quick?: boolean;
}

/** How long a quick pass may reuse the last directory listing. */
const LOCATE_TTL_MS = 60_000;
/** A transcript not modified for this long is "cold"... */
const HOT_MS = 3_600_000;
/** ...and a quick pass checks cold transcripts only this often. */
const COLD_CHECK_MS = 300_000;

export interface AgentSummary {
  seen: number;
  new: number;
  updated: number;
  unchanged: number;
  removed: number;
  skipped: number;
  steps: number;
  issues: number;
}

export interface IndexSummary {
  files: Omit<AgentSummary, 'steps' | 'issues'>;
  steps: { written: number };
  /** Parse issues recorded by this run (see `tapedeck doctor`). */
  issues: number;
  skipped: { path: string; reason: string }[];
  agents: Partial<Record<AgentId, AgentSummary>>;
  /** Files not looked at because the time budget ran out. */
  pending: number;
  ms: number;
}

const emptyAgent = (): AgentSummary => ({
  seen: 0,
  new: 0,
  updated: 0,
  unchanged: 0,
  removed: 0,
  skipped: 0,
  steps: 0,
  issues: 0,
});

function sha1(buf: Buffer): string {
  return createHash('sha1').update(buf).digest('hex');
}

function readHead(fd: number, size: number): Buffer {
  const buf = Buffer.alloc(Math.min(HEAD_BYTES, size));
  let got = 0;
  while (got < buf.length) {
    const n = readSync(fd, buf, got, buf.length - got, got);
    if (n === 0) break;
    got += n;
  }
  return buf.subarray(0, got);
}

export interface Indexer {
  run(options?: IndexRunOptions): IndexSummary;
}

export function createIndexer({
  store,
  adapters,
  env,
  policy = DEFAULT_POLICY,
  batchSteps = 4000,
  maxLineBytes = 32 * 1024 * 1024,
  maxDocumentBytes = 256 * 1024 * 1024,
  spawnParseWorker,
  offloadMinBytes = 16 * 1024,
  archive,
}: IndexerOptions): Indexer {
  const limits: ParseLimits = { policy, batchSteps, maxLineBytes };
  // The parse worker of the current run, and its files in flight (id → job).
  let offload: ParseOffload | undefined;
  /** Set for a run that may use the worker: starts it. */
  let startOffload: (() => ParseOffload) | undefined;
  /** The worker for a file with `bytes` left to read, started on first need; none for small files. */
  function offloadFor(bytes: number): ParseOffload | undefined {
    if (bytes < offloadMinBytes || !startOffload) return undefined;
    offload ??= startOffload();
    return offload;
  }
  /** The archive worker of the current run (started with the parse worker's run), if any. */
  let archives: ArchiveOffload | undefined;
  /** Captures a batch about to commit must wait for: it holds their files' last cursors. */
  let settleFirst: number[] = [];
  /** Transcript bytes read by the current run (for progress). */
  let bytesRead = 0;
  /** `mirror`: a document whose stored steps follow the file exactly (it did not shrink). */
  const offloaded = new Map<number, { job: FileJob; mirror: boolean }>();
  const byId = new Map(adapters.map((a) => [a.id, a]));
  // What quick passes remember between runs in this process.
  let lastListing: { at: number; key: string; found: Map<AgentId, TranscriptFile[]> } | undefined;
  let lastColdCheck = 0;
  let cachedCursors: { version: number; map: Map<string, CursorHead> } | undefined;

  /** Per-file work: everything one transcript needs between flushes. */
  class FileJob {
    readonly sink = new BufferedSink();
    threadId: string | null;
    /** Highest internal order (`seqOf`) written by this run; with `fresh`, truncating above it is a no-op. */
    private maxWritten = Number.NEGATIVE_INFINITY;
    /** Internal orders written by this run (a re-emitted step must replace, not insert). */
    private readonly written = new Set<number>();
    private minTs: string | undefined;
    private maxTs: string | undefined;
    /** Which counter this file was added to (undone if the worker fails on it). */
    counted: 'new' | 'updated' = 'new';
    /** Its capture in the archive worker, if it went there. */
    archiveId: number | undefined;

    constructor(
      readonly adapter: SourceAdapter,
      readonly path: string,
      readonly st: Stats,
      readonly head: Buffer,
      cursorThread: string | null,
      /** Counters for this file's agent, updated as writes are applied. */
      readonly sum: AgentSummary,
      /** Nothing from this file is stored yet (new, or forgotten before re-reading). */
      readonly fresh: boolean,
    ) {
      this.threadId = cursorThread;
    }

    /** Thread id for this file: `<agent>:<sessionId>`, made unique if another file owns it. */
    private resolveThread(): string {
      if (this.threadId) return this.threadId;
      const session = this.sink.meta.sessionId || basename(this.path, extname(this.path));
      let id = `${this.adapter.id}:${session}`;
      // Another file owns this id; one whose file was deleted hands it over (a restored copy, or
      // Antigravity's full transcript replacing the compacted one keeps the thread).
      const owner = store.getThread(id);
      if (owner && owner.source !== this.path && owner.sourceGone?.reason !== 'deleted')
        id = `${id}~${fnv1a(this.path).toString(16)}`;
      this.threadId = id;
      return id;
    }

    private meta(id: string): ThreadMeta {
      const m = this.sink.meta;
      return {
        ...m,
        id,
        agent: this.adapter.id,
        sessionId: m.sessionId || id.slice(this.adapter.id.length + 1),
        source: this.path,
        startedAt: m.startedAt ?? this.minTs,
        updatedAt:
          m.updatedAt && this.maxTs && this.maxTs > m.updatedAt ? this.maxTs : (m.updatedAt ?? this.maxTs),
      };
    }

    /** Apply prepared ops; `keep` (document mode) removes steps the file no longer has. */
    apply(w: TranscriptWriter, { ops, issues }: Pick<Flush, 'ops' | 'issues'>, keep?: Set<number>): void {
      w.addIssues(this.path, issues);
      this.sum.issues += issues.length;
      const hasSteps = ops.some((o) => o.type === 'step');
      if (!hasSteps && !this.threadId && !keep) return;
      for (const o of ops) {
        if (o.type !== 'step' || !o.timestamp) continue;
        if (!this.minTs || o.timestamp < this.minTs) this.minTs = o.timestamp;
        if (!this.maxTs || o.timestamp > this.maxTs) this.maxTs = o.timestamp;
      }
      if (!hasSteps && !this.threadId) return;
      const id = this.resolveThread();
      w.upsertThread(this.meta(id));
      const rewritten = this.written;
      // Neighbour text: the main thread links the batch's turns (the worker prepared each alone).
      linkNeighbours(
        w,
        id,
        ops.flatMap((o) => (o.type === 'step' && o.prepared ? [o.prepared] : [])),
      );
      for (const o of ops) {
        if (o.type === 'truncate') {
          if (!this.fresh || o.from <= this.maxWritten) w.truncateSteps(id, o.from);
          continue;
        }
        const prepared = o.prepared;
        if (!prepared) continue;
        const seq = seqOf(prepared);
        keep?.add(seq);
        if (seq > this.maxWritten) this.maxWritten = seq;
        if (w.upsertStep(id, prepared, this.fresh && !rewritten.has(seq)) !== 'unchanged') this.sum.steps++;
        rewritten.add(seq);
      }
      if (keep) w.retainSteps(id, keep);
      w.refreshThreadCounts(id);
    }

    /**
     * `final`: the last batch of this read. Only its cursor holds the file's size, which makes the
     * next run skip the file as unchanged; a cursor saved mid-file (a run killed after it) holds
     * the bytes it covers, so the next run resumes from it.
     */
    cursor(offset: number, lineNo: number, state: unknown, final: boolean): FileCursor {
      return {
        path: this.path,
        agent: this.adapter.id,
        threadId: this.threadId,
        size: final ? this.st.size : offset,
        mtimeMs: this.st.mtimeMs,
        inode: this.st.ino,
        offset,
        lineNo,
        headHash: sha1(this.head.subarray(0, Math.min(HEAD_BYTES, offset))),
        state: state === undefined ? null : JSON.stringify(state),
      };
    }
  }

  // Writes from several files share a transaction (FTS5 pays per commit); each file's steps and
  // its cursor always commit together, so a crash loses nothing and duplicates nothing.
  let pending: ((w: TranscriptWriter) => void)[] = [];
  let pendingOps = 0;
  function enqueue(job: FileJob, flush: Flush, keep?: Set<number>): void {
    job.sink.meta = flush.meta;
    const cursor = job.cursor(flush.offset, flush.lineNo, flush.state, flush.final);
    // A file's last cursor commits only once its archive copy is written: after a crash, a file
    // the next run skips as unchanged must be in the archive already.
    if (flush.final && job.archiveId !== undefined) settleFirst.push(job.archiveId);
    const batch: Pick<Flush, 'ops' | 'issues'> = { ops: flush.ops, issues: flush.issues };
    pending.push((w) => {
      job.apply(w, batch, keep);
      w.saveCursor({ ...cursor, threadId: job.threadId });
    });
    pendingOps += batch.ops.length + 1;
    if (pendingOps >= batchSteps) flushPending();
  }
  function flushPending(): void {
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    pendingOps = 0;
    const captures = settleFirst;
    settleFirst = [];
    for (const id of captures) archives?.settle(id);
    store.write((w) => {
      for (const fn of batch) fn(w);
    });
  }

  /** The saved parser state of a file resumed from its cursor. */
  function savedState(path: string): unknown {
    const saved = store.cursorState(path);
    if (!saved) return undefined;
    const parsed = tryParseJson(saved);
    return parsed.ok ? parsed.value : undefined;
  }

  /**
   * Read a `lines` file from the cursor on, in chunks, into `sink` (inline or the worker). With
   * `pool` (the worker), each chunk gets its own buffer, since the last one was moved away.
   */
  function readChunks(
    fd: number,
    from: number,
    sink: (buf: Buffer, n: number) => void,
    pool?: ParseOffload,
  ): void {
    let buf = pool ? pool.buffer(CHUNK) : Buffer.allocUnsafeSlow(CHUNK);
    for (let pos = from; ; ) {
      const n = readSync(fd, buf, 0, CHUNK, pos);
      if (n === 0) {
        pool?.giveBack(buf);
        return;
      }
      bytesRead += n;
      sink(buf, n);
      pos += n;
      if (pool) buf = pool.buffer(CHUNK);
    }
  }

  function indexLines(job: FileJob, fd: number, cursor: CursorHead | undefined, resume: boolean): void {
    const { adapter, path } = job;
    const state = resume ? savedState(path) : undefined;
    const offset = resume && cursor ? cursor.offset : 0;
    const lineNo = resume && cursor ? cursor.lineNo : 0;
    const offload = offloadFor(job.st.size - offset);
    if (offload) {
      const id = offload.startLines(adapter.id, path, state, offset, lineNo);
      offloaded.set(id, { job, mirror: false });
      try {
        readChunks(fd, offset, (buf, n) => offload.chunk(id, buf.subarray(0, n)), offload);
      } catch (e) {
        offload.drop(id);
        offloaded.delete(id);
        throw e;
      }
      offload.end(id);
      return;
    }
    const parse = new LinesParse(adapter, path, state, offset, lineNo, limits, (f) => enqueue(job, f));
    readChunks(fd, offset, (buf, n) => parse.push(buf, n));
    parse.finish();
  }

  function indexDocument(job: FileJob, fd: number, shrunk: boolean): void {
    const { adapter, path, st } = job;
    if (st.size > maxDocumentBytes)
      throw new Error(`document is ${st.size} bytes, over the ${maxDocumentBytes}-byte limit`);
    const buf = Buffer.allocUnsafeSlow(st.size);
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, got);
      if (n === 0) break;
      got += n;
    }
    bytesRead += got;
    // A document mirrors the file (steps it no longer has go) unless it shrank: then what was
    // indexed stays, and the thread is marked truncated.
    const offload = offloadFor(got);
    if (offload) {
      offloaded.set(offload.document(adapter.id, path, buf.subarray(0, got)), { job, mirror: !shrunk });
      return;
    }
    const text = buf.subarray(0, got).toString('utf8');
    enqueue(job, parseDocumentFile(adapter, path, text, got, policy), shrunk ? undefined : new Set());
  }

  function indexFile(
    adapter: SourceAdapter,
    file: TranscriptFile,
    cursor: CursorHead | undefined,
    full: boolean,
    sum: AgentSummary,
  ): void {
    let st: Stats;
    try {
      st = statSync(file.path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return; // vanished since locate
      throw e;
    }
    if (!st.isFile()) throw new NotRegularFileError(file.path, fileKind(st));
    if (
      !full &&
      cursor &&
      cursor.size === st.size &&
      cursor.mtimeMs === st.mtimeMs &&
      cursor.inode === st.ino
    ) {
      sum.unchanged++;
      return;
    }
    const { fd, st: now } = openRegularFile(file.path);
    // Shared with the archive worker (then released to it when done here), or closed here.
    let archiveId: number | undefined;
    try {
      const head = readHead(fd, now.size);
      let resume = false;
      if (cursor && !full && file.mode === 'lines' && cursor.inode === now.ino && now.size >= cursor.offset) {
        resume = sha1(head.subarray(0, Math.min(HEAD_BYTES, cursor.offset))) === cursor.headHash;
      }
      // A rewritten file is read again from its start and its steps replace the stored ones by
      // number; steps it no longer has are kept (history is never lost with the file), and a file
      // cut below what was indexed marks its thread truncated.
      const truncated =
        !!cursor && (file.mode === 'lines' ? now.size < cursor.offset : now.size < cursor.size);
      if (cursor && !resume && file.mode === 'lines') pending.push((w) => w.clearIssues(file.path));
      if (archives) archiveId = archives.capture(file.path, adapter.id, fd, now.size);
      else if (archive) archiveCopy(archive, adapter.id, file.path, fd, now.size);
      const job = new FileJob(
        adapter,
        file.path,
        now,
        head,
        resume || file.mode === 'document' ? (cursor?.threadId ?? null) : null,
        sum,
        !cursor || (file.mode === 'lines' && !resume),
      );
      job.counted = cursor ? 'updated' : 'new';
      job.archiveId = archiveId;
      if (file.mode === 'lines') indexLines(job, fd, cursor, resume);
      else indexDocument(job, fd, truncated);
      if (truncated) {
        const at = new Date().toISOString();
        pending.push((w) => w.markSourceGone(file.path, 'truncated', at));
      }
      sum[job.counted]++;
    } finally {
      if (archiveId === undefined) closeSync(fd);
      else archives?.release(archiveId);
    }
  }

  /** A file that could not be indexed: counted, listed, and reported for `tapedeck doctor`. */
  function skipFile(summary: IndexSummary, sum: AgentSummary, path: string, reason: string): void {
    sum.skipped++;
    summary.skipped.push({ path, reason });
    try {
      store.write((w) => w.addIssues(path, [{ path, message: `not indexed: ${reason}` }]));
    } catch (storeError) {
      if (isTapedeckError(storeError)) throw storeError;
    }
  }

  /** Archive what the file holds now; a failure (a full disk) is reported, never stops indexing. */
  function archiveCopy(a: TranscriptArchive, agent: AgentId, path: string, fd: number, size: number): void {
    try {
      a.capture(path, agent, fd, size);
    } catch (e) {
      notArchived(path, errorMessage(e));
    }
  }
  function notArchived(path: string, reason: string): void {
    const issue = { path, message: `not archived: ${reason}` };
    pending.push((w) => w.addIssues(path, [issue]));
  }

  return {
    run({ agents, full = false, onProgress, budgetMs, quick = false } = {}) {
      const started = performance.now();
      const now = Date.now();
      bytesRead = 0;
      const agentsKey = (agents ?? []).join(',');
      const reuseListing =
        quick && !full && lastListing?.key === agentsKey && now - lastListing.at < LOCATE_TTL_MS;
      const checkCold = !quick || full || now - lastColdCheck >= COLD_CHECK_MS;
      const listing = new Map<AgentId, TranscriptFile[]>();
      const chosen = agents?.length
        ? agents.map((a) => byId.get(a)).filter((a): a is SourceAdapter => !!a)
        : adapters;
      const summary: IndexSummary = {
        files: { seen: 0, new: 0, updated: 0, unchanged: 0, removed: 0, skipped: 0 },
        steps: { written: 0 },
        issues: 0,
        skipped: [],
        agents: {},
        pending: 0,
        ms: 0,
      };
      // Quick passes keep the cursor table in memory until another process writes to the store
      // (this process's own writes drop the copy below).
      const version = store.externalChanges();
      const cached = cachedCursors;
      cachedCursors = undefined; // set again only if this run ends without writing anything
      const cursors =
        quick && cached?.version === version
          ? new Map(cached.map)
          : new Map(store.listCursors().map((c) => [c.path, c]));
      const work: { adapter: SourceAdapter; file: TranscriptFile }[] = [];
      const locateIssues: ParseIssue[] = [];
      for (const adapter of chosen) {
        const sum = emptyAgent();
        summary.agents[adapter.id] = sum;
        const found = reuseListing
          ? (lastListing?.found.get(adapter.id) ?? [])
          : adapter.locate(env, (i) => locateIssues.push(i));
        listing.set(adapter.id, found);
        const located = new Set(found.map((f) => f.path));
        sum.seen = found.length;
        for (const file of found) work.push({ adapter, file });
        // A reused listing cannot tell what was deleted since; the next full listing will.
        if (reuseListing) continue;
        // Files that are gone keep their threads, marked (never forgotten as a side effect); first,
        // so a file that replaces another (Antigravity's full transcript appearing beside the
        // compacted one) can take over its thread id.
        for (const c of cursors.values()) {
          if (c.agent !== adapter.id || located.has(c.path)) continue;
          // A file we can no longer see because its directory became unreadable is not deleted.
          if (!isGone(c.path)) continue;
          const at = new Date(now).toISOString();
          store.write((w) => w.markSourceGone(c.path, 'deleted', at));
          cursors.delete(c.path);
          sum.removed++;
        }
      }
      if (!reuseListing) lastListing = { at: now, key: agentsKey, found: listing };
      if (checkCold) lastColdCheck = now;
      if (locateIssues.length) {
        store.write((w) => {
          for (const i of locateIssues) w.addIssues(i.path, [i]);
        });
        for (const i of locateIssues) summary.skipped.push({ path: i.path, reason: i.message });
      }
      const runFiles = (): void => {
        let done = 0;
        for (const { adapter, file } of work) {
          if (budgetMs !== undefined && performance.now() - started > budgetMs) {
            summary.pending = work.length - done;
            return;
          }
          const sum = summary.agents[adapter.id]!;
          const cursor = cursors.get(file.path);
          if (!checkCold && cursor && cursor.mtimeMs < now - HOT_MS) {
            sum.unchanged++; // cold, and checked less than COLD_CHECK_MS ago
            onProgress?.(++done, work.length, file.path, bytesRead);
            continue;
          }
          try {
            indexFile(adapter, file, cursor, full, sum);
          } catch (e) {
            if (isTapedeckError(e)) throw e; // storage problems stop the run: nothing more can be saved
            skipFile(summary, sum, file.path, errorMessage(e));
          }
          onProgress?.(++done, work.length, file.path, bytesRead);
          offload?.receive(false);
          archives?.receive();
        }
      };
      // A first index (or --full) parses in a worker thread while this one reads and writes; the
      // worker starts with the first file big enough to be worth it.
      const toRead = full ? work.length : work.filter((w) => !cursors.has(w.file.path)).length;
      if (spawnParseWorker && budgetMs === undefined && toRead >= OFFLOAD_MIN_FILES)
        startOffload = () =>
          new ParseOffload(spawnParseWorker, limits, {
            flush: (id, f) => {
              const file = offloaded.get(id);
              if (!file) return; // dropped
              if (f.final) offloaded.delete(id);
              enqueue(file.job, f, file.mirror ? new Set() : undefined);
            },
            error: (id, message) => {
              const job = offloaded.get(id)?.job;
              if (!job) return;
              offloaded.delete(id);
              job.sum[job.counted]--;
              skipFile(summary, job.sum, job.path, message);
            },
          });
      // The archive gets a thread of its own in the same runs: gzip, hashes and blob writes were a
      // quarter of the main thread's CPU in a first index (26% at 1M steps).
      if (archive && startOffload && spawnParseWorker)
        archives = new ArchiveOffload(spawnParseWorker, archive.dir, notArchived);
      // A run that reads most transcripts from their start writes in bulk: the store may defer
      // what only keeps reads fast (full-text merges) to one pass when the run has finished.
      const bulk = budgetMs === undefined && toRead >= OFFLOAD_MIN_FILES && toRead * 2 >= work.length;
      if (bulk) store.beginBulkWrites?.();
      let finished = false;
      try {
        try {
          runFiles();
          offload?.drain();
          archives?.drain();
        } finally {
          offload?.close();
          offload = undefined;
          archives?.close();
          archives = undefined;
          settleFirst = [];
          startOffload = undefined;
          offloaded.clear();
        }
        flushPending();
        finished = true;
      } finally {
        if (bulk) store.endBulkWrites?.(finished);
      }
      for (const sum of Object.values(summary.agents)) {
        for (const k of ['seen', 'new', 'updated', 'unchanged', 'removed', 'skipped'] as const)
          summary.files[k] += sum[k];
        summary.steps.written += sum.steps;
        summary.issues += sum.issues;
      }
      summary.issues += locateIssues.length;
      const wrote =
        summary.steps.written > 0 ||
        summary.files.new + summary.files.updated + summary.files.removed + summary.files.skipped > 0 ||
        summary.issues > 0;
      cachedCursors = wrote ? undefined : { version, map: cursors };
      summary.ms = Math.round(performance.now() - started);
      return summary;
    },
  };
}

/** Gone, or no longer located although its directory lists fine (e.g. superseded by another file). */
function isGone(path: string): boolean {
  try {
    statSync(path);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT';
  }
  try {
    readdirSync(dirname(path));
    return true;
  } catch {
    return false;
  }
}
