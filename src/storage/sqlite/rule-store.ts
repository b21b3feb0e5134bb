/** SQLite implementation of the RuleStore port (schema: migrations/003-rules.ts). */
import { parseScope, type Rule } from '../../core/rules.js';
import type { RuleStore, RuleWriter } from '../../ports/rule-store.js';
import { type Db, sqliteGuard } from './open.js';

interface RuleRow {
  id: string;
  title: string;
  body: string;
  scope_kind: string;
  scope_value: string | null;
  enabled: number;
  priority: number;
  created_at: string;
  updated_at: string;
}

const toRule = (r: RuleRow): Rule => ({
  id: r.id,
  title: r.title,
  body: r.body,
  scope: r.scope_kind === 'global' ? 'global' : `${r.scope_kind}:${r.scope_value}`,
  enabled: r.enabled === 1,
  priority: r.priority,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

export function createSqliteRuleStore(db: Db): RuleStore {
  const path = db.name;
  const guard = sqliteGuard(path);
  const writer: RuleWriter = {
    get: (id) => {
      const r = db.prepare('SELECT * FROM rules WHERE id = ?').get(id) as RuleRow | undefined;
      return r ? toRule(r) : undefined;
    },
    put(rule) {
      const scope = parseScope(rule.scope);
      db.prepare(
        `INSERT INTO rules (id, title, body, scope_kind, scope_value, enabled, priority, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET title = excluded.title, body = excluded.body,
           scope_kind = excluded.scope_kind, scope_value = excluded.scope_value, enabled = excluded.enabled,
           priority = excluded.priority, updated_at = excluded.updated_at`,
      ).run(
        rule.id,
        rule.title,
        rule.body,
        scope.kind,
        scope.value,
        rule.enabled ? 1 : 0,
        rule.priority,
        rule.created_at,
        rule.updated_at,
      );
    },
    remove: (id) => db.prepare('DELETE FROM rules WHERE id = ?').run(id).changes > 0,
  };

  return {
    get: (id) => guard(() => writer.get(id)),
    idsWithPrefix(prefix, limit) {
      return guard(() =>
        (
          db
            .prepare('SELECT id FROM rules WHERE id >= ? AND id < ? ORDER BY id LIMIT ?')
            .all(prefix, `${prefix}\uffff`, limit) as {
            id: string;
          }[]
        ).map((r) => r.id),
      );
    },
    list({ scopes, kinds, enabled } = {}) {
      return guard(() => {
        const where: string[] = [];
        const params: unknown[] = [];
        if (scopes?.length) {
          where.push(`(${scopes.map(() => '(scope_kind = ? AND scope_value IS ?)').join(' OR ')})`);
          for (const s of scopes) params.push(s.kind, s.value);
        }
        if (kinds?.length) {
          where.push(`scope_kind IN (${kinds.map(() => '?').join(',')})`);
          params.push(...kinds);
        }
        if (enabled !== undefined) {
          where.push('enabled = ?');
          params.push(enabled ? 1 : 0);
        }
        const sql = `SELECT * FROM rules ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at, id`;
        return (db.prepare(sql).all(...params) as RuleRow[]).map(toRule);
      });
    },
    write(fn) {
      return guard(() => db.transaction(() => fn(writer)).immediate());
    },
  };
}
