/** Row mapping, parameters and filter SQL for the PostgreSQL memory store. */
import { TapedeckError } from '../../core/errors.js';
import type { Memory } from '../../core/memory.js';
import type { MemoryFilter } from '../../ports/memory-store.js';
import { type MemoryRow, toMemory, toRow } from '../memory-row.js';
import { Params } from './sql-params.js';
import { PgError } from './sync-client.js';

export { type MemoryRow, Params, toMemory, toRow };

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

/** Run a store call, turning a PostgreSQL refusal into a TapedeckError (connection loss already is one). */
export function pgGuard(label: string): <T>(fn: () => T) => T {
  return (fn) => {
    try {
      return fn();
    } catch (e) {
      if (e instanceof PgError)
        throw new TapedeckError(
          'STORAGE_UNAVAILABLE',
          `The PostgreSQL server ${label} refused: ${e.message}`,
          {
            sqlstate: e.code,
          },
        );
      throw e;
    }
  };
}
