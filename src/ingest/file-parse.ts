/**
 * Parsing one transcript file into batches ready to write: lines split, parsed by the agent's
 * parser and prepared for the index (capped, redacted, identifier terms), flushed every
 * `batchSteps` ops with the position and parser state a cursor needs. The same code runs inline
 * in the indexer and in the parse worker (ingest/parse-worker.ts); the main thread keeps the
 * reading of files, the writes and the cursors.
 */
import { tryParseJson } from '../core/text.js';
import type { ParseIssue } from '../core/types.js';
import type { SourceAdapter } from '../ports/source.js';
import type { PreparedStep } from '../ports/transcript-store.js';
import { BufferedSink, type SinkOp, type ThreadFacts } from './buffered-sink.js';
import { LineSplitter } from './line-reader.js';
import { type IndexPolicy, prepareStep } from './prepare-step.js';
import { stripBom } from './regular-file.js';

/** A parsed op with its step already prepared; `prepared` is null when nothing is left to index. */
export type ReadyOp =
  | { type: 'step'; timestamp?: string; prepared: PreparedStep | null }
  | { type: 'truncate'; from: number };

/** One batch of a file: what to write, and where a cursor saved with it resumes. */
export interface Flush {
  ops: ReadyOp[];
  issues: ParseIssue[];
  /** The thread facts seen so far in the file (cumulative). */
  meta: ThreadFacts;
  /** Byte offset after the last line covered, and that line's number. */
  offset: number;
  lineNo: number;
  /** The parser's state at `offset` (JSON-serializable). */
  state: unknown;
  /** The file's last batch of this read (its cursor says the file is indexed to its size). */
  final: boolean;
}

export interface ParseLimits {
  policy: IndexPolicy;
  batchSteps: number;
  maxLineBytes: number;
}

/** Prepare parsed ops for the index (see prepareStep). */
export function prepareOps(ops: readonly SinkOp[], policy: IndexPolicy): ReadyOp[] {
  return ops.map((o) =>
    o.type === 'step'
      ? { type: 'step', timestamp: o.step.timestamp, prepared: prepareStep(o.step, policy) }
      : o,
  );
}

/** A `lines` file parsed from `offset` on, fed with consecutive chunks of its bytes. */
export class LinesParse {
  private readonly sink = new BufferedSink();
  private readonly parser;
  private readonly splitter: LineSplitter;

  constructor(
    adapter: SourceAdapter,
    private readonly path: string,
    state: unknown,
    private offset: number,
    private lineNo: number,
    private readonly limits: ParseLimits,
    private readonly onFlush: (f: Flush) => void,
  ) {
    this.parser = adapter.createLineParser(path, state);
    this.splitter = new LineSplitter(offset, lineNo + 1, limits.maxLineBytes);
  }

  private flush(state: unknown, final: boolean): void {
    const { ops, issues } = this.sink.drain();
    this.onFlush({
      ops: prepareOps(ops, this.limits.policy),
      issues,
      meta: { ...this.sink.meta },
      offset: this.offset,
      lineNo: this.lineNo,
      state,
      final,
    });
  }

  /** The next `n` bytes of the file. */
  push(buf: Buffer, n = buf.length): void {
    const { path, sink, parser } = this;
    for (const ev of this.splitter.push(buf, n)) {
      if (ev.kind === 'too-long') {
        sink.issue({
          path,
          line: ev.lineNo,
          message: `line is ${ev.bytes} bytes, over the ${this.limits.maxLineBytes}-byte limit; skipped`,
        });
      } else {
        if (ev.invalidUtf8)
          sink.issue({ path, line: ev.lineNo, message: 'invalid UTF-8 bytes replaced with U+FFFD' });
        parser.line(ev.text, ev.lineNo, sink);
      }
      this.offset = ev.end;
      this.lineNo = ev.lineNo;
      if (sink.size >= this.limits.batchSteps) this.flush(parser.state(), false);
    }
  }

  /** End of the bytes read: the last flush. */
  finish(): void {
    const tail = this.splitter.finish();
    // A last line without a newline may still be being written. Parse it now if it is whole JSON
    // (a finished file may lack the final newline), but keep the cursor before it, with the
    // parser state from before it: the next run re-reads it, and its steps upsert.
    const snapshot = structuredClone(this.parser.state());
    if (tail.text !== null && tryParseJson(tail.text).ok) this.parser.line(tail.text, tail.lineNo, this.sink);
    this.flush(snapshot, true);
  }
}

/** A whole `document` file parsed in one flush. */
export function parseDocumentFile(
  adapter: SourceAdapter,
  path: string,
  text: string,
  bytes: number,
  policy: IndexPolicy,
): Flush {
  const sink = new BufferedSink();
  // A UTF-8 byte-order mark is not part of the JSON document.
  adapter.parseDocument(path, stripBom(text), sink);
  const { ops, issues } = sink.drain();
  return {
    ops: prepareOps(ops, policy),
    issues,
    meta: sink.meta,
    offset: bytes,
    lineNo: 0,
    state: undefined,
    final: true,
  };
}
