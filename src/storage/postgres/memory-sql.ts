/** Row mapping, parameters and filter SQL for the PostgreSQL memory store. */
import { HippoError } from '../../core/errors.js';
import { type Memory, type MemoryStatus, memoryLink, threadLink, type UnitType } from '../../core/memory.js';
import { contentHash } from '../../core/near-duplicate.js';
import type { MemoryFilter } from '../../ports/memory-store.js';
import { Params } from './sql-params.js';
import { PgError } from './sync-client.js';

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

export { Params };

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

/** The stored columns (everything but `mid` and the tsvector). */
export const COLS = Object.keys(toRow({ labels: [], content: '' } as unknown as Memory)) as (keyof Omit<
  MemoryRow,
  'mid'
>)[];
/** What a memory read selects (never the tsvector). */
export const SELECT_COLS = ['mid', ...COLS].map((c) => `m.${c}`).join(', ');

/** Escape LIKE metacharacters (`\` is the escape character). */
export const likeEscape = (s: string) => s.replace(/[\\%_]/g, '\\$&');

/** SQL conditions on `m` (memories) for a filter: the same conditions as SQLite's filterSql. */
export function filterSql(f: MemoryFilter, p: Params): string {
  const where: string[] = [];
  if (f.spaces) where.push(`m.space = ANY(${p.add(f.spaces)}::text[])`);
  if (f.types?.length) where.push(`m.unit_type = ANY(${p.add(f.types)}::text[])`);
  for (const l of f.labels ?? [])
    where.push(`EXISTS (SELECT 1 FROM memory_labels l WHERE l.label = ${p.add(l)} AND l.mid = m.mid)`);
  if (f.project) {
    const pr = f.project;
    const below = `${likeEscape(pr)}${pr.endsWith('/') ? '' : '/'}%`;
    where.push(`(m.project = ${p.add(pr)} OR m.project LIKE ${p.add(below)} ESCAPE '\\')`);
  }
  if (f.asOf) {
    const t = p.add(f.asOf);
    where.push(
      `m.forgotten_at IS NULL AND m.valid_from <= ${t} AND (m.valid_to IS NULL OR m.valid_to > ${t})`,
    );
  } else where.push(`m.status = ANY(${p.add(f.statuses?.length ? f.statuses : ['active'])}::text[])`);
  if (f.since) where.push(`COALESCE(m.event_end, m.event_start, m.created_at) >= ${p.add(f.since)}`);
  if (f.until) where.push(`COALESCE(m.event_start, m.created_at) <= ${p.add(f.until)}`);
  return where.join(' AND ') || 'TRUE';
}

/** Run a store call, turning a PostgreSQL refusal into a HippoError (connection loss already is one). */
export function pgGuard(label: string): <T>(fn: () => T) => T {
  return (fn) => {
    try {
      return fn();
    } catch (e) {
      if (e instanceof PgError)
        throw new HippoError('STORAGE_UNAVAILABLE', `The PostgreSQL server ${label} refused: ${e.message}`, {
          sqlstate: e.code,
        });
      throw e;
    }
  };
}
