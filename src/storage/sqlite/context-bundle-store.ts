/**
 * SQLite reads for the context bundle: candidate memories by recency and importance, bounded by
 * indexes (memories_space_status_project from migrations/007 serves the per-project and
 * project-less scopes; memories_space_status_updated from 002 the whole space).
 */
import type { ContextBundleStore, MemoryPick, PickScope } from '../../ports/context-bundle-store.js';
import type { Statement } from './lazy-statements.js';
import { type Db, mapSqliteError } from './open.js';

const COLS = 'id, title, content, unit_type, project, importance, updated_at';

/** SQL and parameters selecting the active memories of a space in one scope. */
function scopeSql(space: string, scope: PickScope): { where: string; params: unknown[] }[] {
  const base = "space = ? AND status = 'active'";
  if (scope === 'all') return [{ where: base, params: [space] }];
  if (scope.project === null) return [{ where: `${base} AND project IS NULL`, params: [space] }];
  const p = scope.project;
  // Below the directory: the range of paths starting with `p/` ('0' follows '/'; ']' follows '\').
  const sep = p.includes('\\') && !p.includes('/') ? '\\' : '/';
  const next = sep === '/' ? '0' : ']';
  const root = p.endsWith(sep) ? p.slice(0, -1) : p;
  return [
    { where: `${base} AND project = ?`, params: [space, p] },
    { where: `${base} AND project > ? AND project < ?`, params: [space, `${root}${sep}`, `${root}${next}`] },
  ];
}

export function createSqliteContextBundleStore(db: Db): ContextBundleStore {
  const path = db.name;
  const cache = new Map<string, Statement>();
  const st = (sql: string) => {
    let s = cache.get(sql);
    if (!s) {
      s = db.prepare<unknown[]>(sql);
      cache.set(sql, s);
    }
    return s;
  };
  return {
    pickMemories(space, scope, limit, window) {
      try {
        const out = new Map<string, MemoryPick>();
        for (const { where, params } of scopeSql(space, scope)) {
          const recent = st(
            `SELECT ${COLS} FROM memories WHERE ${where} ORDER BY updated_at DESC, id DESC LIMIT ?`,
          );
          const important = st(
            `SELECT ${COLS} FROM memories WHERE mid IN (
               SELECT mid FROM (SELECT mid, importance, updated_at FROM memories WHERE ${where}
                                ORDER BY updated_at DESC, id DESC LIMIT ?)
               ORDER BY importance DESC, updated_at DESC, id DESC LIMIT ?)`,
          );
          for (const m of [
            ...(recent.all(...params, limit) as MemoryPick[]),
            ...(important.all(...params, window, limit) as MemoryPick[]),
          ])
            out.set(m.id, m);
        }
        return [...out.values()];
      } catch (e) {
        throw mapSqliteError(e, path);
      }
    },
  };
}
