/**
 * Collects what a parser emits for one file between two flushes: thread metadata, step upserts
 * and truncations in order (a later upsert of the same step replaces the earlier one in place).
 * Steps are keyed, and truncations counted, by their internal order (`seqOf`).
 */
import { type ParseIssue, type Step, seqOf, type ThreadMeta } from '../core/types.js';
import type { ParseSink } from '../ports/source.js';

export type SinkOp = { type: 'step'; step: Step } | { type: 'truncate'; from: number };
export type ThreadFacts = Partial<Omit<ThreadMeta, 'id' | 'agent' | 'source'>>;

export class BufferedSink implements ParseSink {
  meta: ThreadFacts = {};
  ops: SinkOp[] = [];
  issues: ParseIssue[] = [];
  private index = new Map<number, number>();

  thread(meta: ThreadFacts): void {
    for (const [k, v] of Object.entries(meta)) {
      if (v !== undefined && v !== null && v !== '') (this.meta as Record<string, unknown>)[k] = v;
    }
  }

  step(step: Step): void {
    const key = seqOf(step);
    const at = this.index.get(key);
    if (at !== undefined) {
      this.ops[at] = { type: 'step', step };
      return;
    }
    this.index.set(key, this.ops.length);
    this.ops.push({ type: 'step', step });
  }

  truncate(from: number): void {
    for (const [k] of this.index) if (k >= from) this.index.delete(k);
    this.ops.push({ type: 'truncate', from });
  }

  issue(issue: ParseIssue): void {
    this.issues.push(issue);
  }

  get size(): number {
    return this.ops.length;
  }

  /** Hand over the buffered ops and issues, keeping the metadata for the next flush. */
  drain(): { ops: SinkOp[]; issues: ParseIssue[] } {
    const out = { ops: this.ops, issues: this.issues };
    this.ops = [];
    this.issues = [];
    this.index.clear();
    return out;
  }
}
