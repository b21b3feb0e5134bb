/** A memory's stored row, shared by the backends: the same columns, the same mapping to the domain type. */
import { type Memory, type MemoryStatus, memoryLink, threadLink, type UnitType } from '../core/memory.js';
import { contentHash } from '../core/near-duplicate.js';

export interface MemoryRow {
  mid: number;
  id: string;
  title: string;
  content: string;
  unit_type: UnitType;
  labels: string;
  importance: number;
  confidence: number;
  space: string;
  project: string | null;
  thread_id: string | null;
  step_from: number | null;
  step_to: number | null;
  source: string | null;
  event_start: string | null;
  event_end: string | null;
  created_at: string;
  updated_at: string;
  valid_from: string;
  valid_to: string | null;
  superseded_by: string | null;
  forgotten_at: string | null;
  status: MemoryStatus;
  content_hash: string;
}

export function toMemory(r: MemoryRow): Memory {
  const hasProvenance = r.thread_id !== null || r.source !== null;
  return {
    id: r.id,
    link: memoryLink(r.id),
    title: r.title,
    content: r.content,
    unit_type: r.unit_type,
    labels: JSON.parse(r.labels) as string[],
    importance: r.importance,
    confidence: r.confidence,
    space: r.space,
    project: r.project,
    provenance: hasProvenance
      ? {
          thread: r.thread_id,
          step_from: r.step_from,
          step_to: r.step_to,
          link: r.thread_id ? threadLink(r.thread_id, r.step_from) : null,
          source: r.source,
        }
      : null,
    event_start: r.event_start,
    event_end: r.event_end,
    created_at: r.created_at,
    updated_at: r.updated_at,
    valid_from: r.valid_from,
    valid_to: r.valid_to,
    superseded_by: r.superseded_by,
    forgotten_at: r.forgotten_at,
    status: r.status,
  };
}

export function toRow(m: Memory): Omit<MemoryRow, 'mid'> {
  return {
    id: m.id,
    title: m.title,
    content: m.content,
    unit_type: m.unit_type,
    labels: JSON.stringify(m.labels),
    importance: m.importance,
    confidence: m.confidence,
    space: m.space,
    project: m.project,
    thread_id: m.provenance?.thread ?? null,
    step_from: m.provenance?.step_from ?? null,
    step_to: m.provenance?.step_to ?? null,
    source: m.provenance?.source ?? null,
    event_start: m.event_start,
    event_end: m.event_end,
    created_at: m.created_at,
    updated_at: m.updated_at,
    valid_from: m.valid_from,
    valid_to: m.valid_to,
    superseded_by: m.superseded_by,
    forgotten_at: m.forgotten_at,
    status: m.status,
    content_hash: contentHash(m.content),
  };
}
