/**
 * PostgreSQL reads for the context bundle (the twin of storage/sqlite/context-bundle-store.ts):
 * candidate memories by recency and importance, bounded by indexes (memories_space_status_project
 * serves the per-project and project-less scopes, memories_space_status_updated the whole space).
 * Every part of a scope is one branch of a single statement: one round trip per call.
 */
import type { ContextBundleStore, MemoryPick, PickScope } from '../../ports/context-bundle-store.js';
import { Params, pgGuard } from './memory-sql.js';
import type { PgStore } from './open.js';

const COLS = 'id, title, content, unit_type, project, importance, updated_at';

/** Conditions selecting the active memories of a space in one scope (one per part). */
function scopeSql(space: string, scope: PickScope, p: Params): string[] {
  const base = `space = ${p.add(space)} AND status = 'active'`;
  if (scope === 'all') return [base];
  if (scope.project === null) return [`${base} AND project IS NULL`];
  const dir = scope.project;
  // Below the directory: the range of paths starting with `dir/` ('0' follows '/'; ']' follows
  // '\'). The "C" collation of `project` makes this a byte-wise range, as on SQLite.
  const sep = dir.includes('\\') && !dir.includes('/') ? '\\' : '/';
  const next = sep === '/' ? '0' : ']';
  const root = dir.endsWith(sep) ? dir.slice(0, -1) : dir;
  return [
    `${base} AND project = ${p.add(dir)}`,
    `${base} AND project > ${p.add(`${root}${sep}`)} AND project < ${p.add(`${root}${next}`)}`,
  ];
}

export function createPgContextBundleStore(db: PgStore): ContextBundleStore {
  const { pg } = db;
  const guard = pgGuard(pg.label);
  return {
    pickMemories(space, scope, limit, window) {
      return guard(() => {
        const p = new Params();
        const n = p.add(limit);
        const w = p.add(window);
        const branches = scopeSql(space, scope, p).flatMap((where, part) => [
          `(SELECT ${part} AS part, 0 AS branch, ${COLS}, mid FROM memories WHERE ${where}
            ORDER BY updated_at DESC, id DESC LIMIT ${n})`,
          `(SELECT ${part}, 1, ${COLS}, mid FROM memories WHERE mid IN (
              SELECT mid FROM (SELECT mid, importance, updated_at FROM memories WHERE ${where}
                               ORDER BY updated_at DESC, id DESC LIMIT ${w}) recent
              ORDER BY importance DESC, updated_at DESC, id DESC LIMIT ${n}))`,
        ]);
        const rows = pg.query<MemoryPick & { part: number; branch: number }>(
          `${branches.join(' UNION ALL ')} ORDER BY part, branch, updated_at DESC, id DESC`,
          p.values,
        );
        // First seen first, as the SQLite store returns them.
        const out = new Map<string, MemoryPick>();
        for (const r of rows)
          if (!out.has(r.id))
            out.set(r.id, {
              id: r.id,
              title: r.title,
              content: r.content,
              unit_type: r.unit_type,
              project: r.project,
              importance: r.importance,
              updated_at: r.updated_at,
            });
        return [...out.values()];
      });
    },
  };
}
