/**
 * Reads for the context bundle, once for every backend: candidate memories by recency and
 * importance, bounded by indexes (memories_space_status_project from migrations/007 serves the
 * per-project and project-less scopes; memories_space_status_updated from 002 the whole space).
 * Every part of a scope is one branch of a single statement: one round trip per call. Each branch
 * is a derived table so that its own ORDER BY … LIMIT stands in both dialects.
 */
import type { ContextBundleStore, MemoryPick, PickScope } from '../ports/context-bundle-store.js';
import { type Sql, type SqlDb, sql } from './sql.js';

const COLS = sql.raw('id, title, content, unit_type, project, importance, updated_at');

/** Conditions selecting the active memories of a space in one scope (one per part). */
function scopeSql(space: string, scope: PickScope): Sql[] {
  const base = sql`space = ${space} AND status = 'active'`;
  if (scope === 'all') return [base];
  if (scope.project === null) return [sql`${base} AND project IS NULL`];
  const dir = scope.project;
  // Below the directory: the range of paths starting with `dir/` ('0' follows '/'; ']' follows
  // '\'). SQLite compares bytes; the "C" collation of `project` does the same on PostgreSQL.
  const sep = dir.includes('\\') && !dir.includes('/') ? '\\' : '/';
  const next = sep === '/' ? '0' : ']';
  const root = dir.endsWith(sep) ? dir.slice(0, -1) : dir;
  return [
    sql`${base} AND project = ${dir}`,
    sql`${base} AND project > ${`${root}${sep}`} AND project < ${`${root}${next}`}`,
  ];
}

/** The context bundle's reads over either backend's database. */
export function createContextBundleStore(db: SqlDb): ContextBundleStore {
  return {
    async pickMemories(space, scope, limit, window) {
      const branches = scopeSql(space, scope).flatMap((where, i) => {
        const part = sql.raw(String(i));
        return [
          sql`SELECT * FROM (SELECT ${part} AS part, 0 AS branch, ${COLS} FROM memories WHERE ${where}
                             ORDER BY updated_at DESC, id DESC LIMIT ${limit}) recent${part}`,
          sql`SELECT * FROM (SELECT ${part} AS part, 1 AS branch, ${COLS} FROM memories WHERE mid IN (
                SELECT mid FROM (SELECT mid, importance, updated_at, id FROM memories WHERE ${where}
                                 ORDER BY updated_at DESC, id DESC LIMIT ${window}) w
                ORDER BY importance DESC, updated_at DESC, id DESC LIMIT ${limit})) important${part}`,
        ];
      });
      const rows = await db.all<MemoryPick & { part: number; branch: number }>(
        sql`${sql.join(branches, ' UNION ALL ')} ORDER BY part, branch, updated_at DESC, id DESC`,
      );
      // First seen first: the most recent, then the important ones, part by part.
      const out = new Map<string, MemoryPick>();
      for (const r of rows)
        if (!out.has(r.id))
          out.set(r.id, {
            id: r.id,
            title: r.title,
            content: r.content,
            unit_type: r.unit_type,
            project: r.project,
            importance: Number(r.importance),
            updated_at: r.updated_at,
          });
      return [...out.values()];
    },
  };
}
