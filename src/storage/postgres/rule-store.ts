/** PostgreSQL implementation of the RuleStore port (schema: migrations/003-rules.ts). */
import { parseScope, type Rule } from '../../core/rules.js';
import type { RuleStore, RuleWriter } from '../../ports/rule-store.js';
import type { PgStore } from './open.js';
import { pgGuard } from './skill-wiki-guard.js';

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

const COLS = 'id, title, body, scope_kind, scope_value, enabled, priority, created_at, updated_at';

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

export function createPgRuleStore({ pg }: PgStore): RuleStore {
  const writer: RuleWriter = {
    get: (id) => {
      const r = pg.one<RuleRow>(`SELECT ${COLS} FROM rules WHERE id = $1`, [id]);
      return r ? toRule(r) : undefined;
    },
    put(rule) {
      const scope = parseScope(rule.scope);
      pg.run(
        `INSERT INTO rules (id, title, body, scope_kind, scope_value, enabled, priority, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (id) DO UPDATE SET title = excluded.title, body = excluded.body,
           scope_kind = excluded.scope_kind, scope_value = excluded.scope_value, enabled = excluded.enabled,
           priority = excluded.priority, updated_at = excluded.updated_at`,
        [
          rule.id,
          rule.title,
          rule.body,
          scope.kind,
          scope.value,
          rule.enabled ? 1 : 0,
          rule.priority,
          rule.created_at,
          rule.updated_at,
        ],
      );
    },
    remove: (id) => pg.run('DELETE FROM rules WHERE id = $1', [id]) > 0,
  };

  return {
    get: (id) => pgGuard(() => writer.get(id)),
    idsWithPrefix: (prefix, limit) =>
      pg
        .query<{ id: string }>('SELECT id FROM rules WHERE id >= $1 AND id < $2 ORDER BY id LIMIT $3', [
          prefix,
          `${prefix}\uffff`,
          limit,
        ])
        .map((r) => r.id),
    list({ scopes, kinds, enabled } = {}) {
      const where: string[] = [];
      const params: unknown[] = [];
      const p = (v: unknown) => {
        params.push(v);
        return `$${params.length}`;
      };
      if (scopes?.length)
        where.push(
          `(${scopes.map((s) => `(scope_kind = ${p(s.kind)} AND scope_value IS NOT DISTINCT FROM ${p(s.value)}::text)`).join(' OR ')})`,
        );
      if (kinds?.length) where.push(`scope_kind = ANY(${p(kinds)}::text[])`);
      if (enabled !== undefined) where.push(`enabled = ${p(enabled ? 1 : 0)}`);
      return pg
        .query<RuleRow>(
          `SELECT ${COLS} FROM rules ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at, id`,
          params,
        )
        .map(toRule);
    },
    write: (fn) => pgGuard(() => pg.transaction(() => fn(writer), 'write')),
  };
}
