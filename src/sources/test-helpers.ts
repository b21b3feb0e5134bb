/** Test helpers for source adapters: feed a fixture through a parser the way ingest does. */
import { readFileSync } from 'node:fs';
import { type ParseIssue, type Step, seqOf, type ThreadMeta } from '../core/types.js';
import type { ParseSink, SourceAdapter } from '../ports/source.js';

export interface Collected {
  thread: Partial<ThreadMeta>;
  /** Steps in their internal order (`seqOf`), after upserts and truncations. */
  steps: Step[];
  issues: ParseIssue[];
}

export function createCollector(): { sink: ParseSink; result: () => Collected } {
  const thread: Partial<ThreadMeta> = {};
  const steps = new Map<number, Step>();
  const issues: ParseIssue[] = [];
  const sink: ParseSink = {
    thread: (meta) => Object.assign(thread, meta),
    step: (s) => void steps.set(seqOf(s), s),
    truncate: (from) => {
      for (const k of [...steps.keys()]) if (k >= from) steps.delete(k);
    },
    issue: (i) => void issues.push(i),
  };
  return {
    sink,
    result: () => ({ thread, steps: [...steps.values()].sort((a, b) => seqOf(a) - seqOf(b)), issues }),
  };
}

/** Split a file into complete lines (a last line without newline is included, like a finished file). */
export function fileLines(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** Parse a `lines` file in one go. */
export function parseLinesFile(adapter: SourceAdapter, path: string): Collected {
  const c = createCollector();
  const p = adapter.createLineParser(path);
  for (const [i, l] of fileLines(path).entries()) p.line(l, i + 1, c.sink);
  return c.result();
}

/**
 * Parse a `lines` file in two runs split after `splitAt` lines, passing the state through JSON as
 * ingest does. The result must equal parseLinesFile's.
 */
export function parseLinesFileResumed(adapter: SourceAdapter, path: string, splitAt: number): Collected {
  const c = createCollector();
  const lines = fileLines(path);
  const first = adapter.createLineParser(path);
  for (const [i, l] of lines.slice(0, splitAt).entries()) first.line(l, i + 1, c.sink);
  const saved = JSON.parse(JSON.stringify(first.state() ?? null));
  const second = adapter.createLineParser(path, saved);
  for (const [i, l] of lines.slice(splitAt).entries()) second.line(l, splitAt + i + 1, c.sink);
  return c.result();
}

export function parseDocumentFile(adapter: SourceAdapter, path: string): Collected {
  const c = createCollector();
  adapter.parseDocument(path, readFileSync(path, 'utf8'), c.sink);
  return c.result();
}
