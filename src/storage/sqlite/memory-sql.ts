/** Row mapping, filter SQL and FTS filter tokens for the memory store. */
import type BetterSqlite3 from 'better-sqlite3';
import { fnv1a } from '../../core/hash.js';
import type { Memory, MemoryStatus } from '../../core/memory.js';
import { ancestors } from '../../core/paths.js';
import type { MemoryFilter } from '../../ports/memory-store.js';

export type Statement = BetterSqlite3.Statement<unknown[], unknown>;
/** A prepared-statement cache: statements are prepared on first use. */
export type Prepare = (sql: string) => Statement;

import { type MemoryRow, toMemory, toRow } from '../memory-row.js';

export { type MemoryRow, toMemory, toRow };

export const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;

/**
 * Filter tokens for the FTS `tags` column. Hashed so any space, label or path becomes one token
 * the tokenizer keeps whole; a hash collision only widens a candidate set, because every filter
 * is checked again in SQL. Tags are used only in unranked MATCHes: a ranked one would make bm25
 * count every memory carrying a common tag.
 */
export const tag = {
  space: (s: string) => `zs${fnv1a(s).toString(36)}`,
  type: (t: string) => `zt${t}`,
  label: (l: string) => `zl${fnv1a(l).toString(36)}`,
  project: (p: string) => `zp${fnv1a(p).toString(36)}`,
  noProject: 'zpnone',
  status: (s: string) => `zx${s}`,
};

export function tagsOf(m: Memory): string {
  const out = [tag.space(m.space), tag.type(m.unit_type), tag.status(m.status)];
  for (const l of m.labels) out.push(tag.label(l));
  if (m.project) for (const p of ancestors(m.project)) out.push(tag.project(p));
  else out.push(tag.noProject);
  return out.join(' ');
}

export const COLS = Object.keys(toRow({ labels: [], content: '' } as unknown as Memory));

/** SQL conditions on `m` (memories) for a filter. */
export function filterSql(f: MemoryFilter): { where: string; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const list = (col: string, values: readonly string[]) => {
    where.push(`${col} IN (${values.map(() => '?').join(',')})`);
    params.push(...values);
  };
  if (f.spaces) list('m.space', f.spaces);
  if (f.types?.length) list('m.unit_type', f.types);
  for (const l of f.labels ?? []) {
    // Correlated: one primary-key probe per row (an IN list would be built from every holder).
    where.push('EXISTS (SELECT 1 FROM memory_labels l WHERE l.label = ? AND l.mid = m.mid)');
    params.push(l);
  }
  if (f.project) {
    const p = f.project;
    where.push(`(m.project = ? OR m.project LIKE ? ESCAPE '\\')`);
    params.push(p, `${p.replace(/[\\%_]/g, '\\$&')}${p.endsWith('/') ? '' : '/'}%`);
  }
  if (f.asOf) {
    where.push('m.forgotten_at IS NULL AND m.valid_from <= ? AND (m.valid_to IS NULL OR m.valid_to > ?)');
    params.push(f.asOf, f.asOf);
  } else list('m.status', f.statuses?.length ? f.statuses : ['active']);
  if (f.since) {
    where.push('COALESCE(m.event_end, m.event_start, m.created_at) >= ?');
    params.push(f.since);
  }
  if (f.until) {
    where.push('COALESCE(m.event_start, m.created_at) <= ?');
    params.push(f.until);
  }
  return { where: where.join(' AND ') || '1', params };
}

/**
 * The filter as FTS conjuncts on the tags column (for unranked matches). Active memories are
 * nearly all of them, so a filter that includes them gets no status tag; the caller says whether
 * the space is small enough for its tag to help (a tag held by most memories only slows FTS5).
 */
export function tagExpr(f: MemoryFilter, { space = true } = {}): string[] {
  const out: string[] = [];
  const col = (tokens: string[]) =>
    out.push(`tags : ${tokens.length === 1 ? quote(tokens[0]) : `(${tokens.map(quote).join(' OR ')})`}`);
  if (f.spaces && space) col(f.spaces.map(tag.space));
  if (f.types?.length) col(f.types.map(tag.type));
  for (const l of f.labels ?? []) col([tag.label(l)]);
  if (f.project) col([tag.project(f.project)]);
  const statuses: MemoryStatus[] = f.asOf
    ? ['active', 'superseded']
    : f.statuses?.length
      ? f.statuses
      : ['active'];
  if (!statuses.includes('active')) col(statuses.map(tag.status));
  return out;
}
