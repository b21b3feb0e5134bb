/**
 * A transcript thread's and step's stored rows, shared by the backends: the same columns, the
 * same mapping to the domain records (an absent value is left out, not `null`).
 */
import type { AgentId, Role, StepKind } from '../core/types.js';
import type { SourceGoneReason, StepRecord, ThreadRecord } from '../ports/transcript-store.js';

/** A row of `threads`. */
export interface ThreadRow {
  tid: number;
  id: string;
  agent: AgentId;
  session_id: string;
  project: string | null;
  title: string | null;
  started_at: string | null;
  updated_at: string | null;
  source: string;
  parent_id: string | null;
  space: string;
  step_count: number;
  source_gone_at: string | null;
  source_gone: SourceGoneReason | null;
}

/** The columns of `steps` a read maps to a record. */
export interface StepColumns {
  seq: number;
  step: number;
  role: Role;
  kind: StepKind;
  text: string;
  tool: string | null;
  target: string | null;
  ts: string | null;
  line: number;
}

/** A thread row as the domain record. */
export const toThread = (r: ThreadRow): ThreadRecord => ({
  id: r.id,
  agent: r.agent,
  sessionId: r.session_id,
  project: r.project ?? undefined,
  title: r.title ?? undefined,
  startedAt: r.started_at ?? undefined,
  updatedAt: r.updated_at ?? undefined,
  source: r.source,
  parentId: r.parent_id ?? undefined,
  space: r.space,
  stepCount: r.step_count,
  ...(r.source_gone_at && r.source_gone
    ? { sourceGone: { at: r.source_gone_at, reason: r.source_gone } }
    : {}),
});

/** A step row as the domain record, in the thread `threadId` whose transcript is `sourcePath`. */
export const toStep = (r: StepColumns, threadId: string, sourcePath: string): StepRecord => ({
  threadId,
  step: r.step,
  ...(r.seq !== r.step ? { seq: r.seq } : {}),
  role: r.role,
  kind: r.kind,
  text: r.text,
  tool: r.tool ?? undefined,
  target: r.target ?? undefined,
  timestamp: r.ts ?? undefined,
  source: { path: sourcePath, line: r.line },
});
