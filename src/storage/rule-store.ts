/**
 * The rule store, once for every backend (schema: migrations/003-rules.ts on each): one row type,
 * one mapper, one upsert, written against storage/sql.ts. The only dialect difference is the row
 * lock a read-modify-write takes on PostgreSQL (SQLite's IMMEDIATE transaction already excludes
 * other writers).
 */
import { parseScope, type Rule } from '../core/rules.js';
import type { RuleStore, RuleWriter } from '../ports/rule-store.js';
import { type SqlDb, type SqlQueries, sql } from './sql.js';

interface RuleRow {
  id: string;
  title: string;
  body: string;
  scope_kind: string;
  scope_value: string | null;
  enabled: number;
  priority: number;
  note: string | null;
  owner: string | null;
  created_at: string;
  updated_at: string;
}

const COLS = sql.raw(
  'id, title, body, scope_kind, scope_value, enabled, priority, note, owner, created_at, updated_at',
);

const toRule = (r: RuleRow): Rule => ({
  id: r.id,
  title: r.title,
  body: r.body,
  scope: r.scope_kind === 'global' ? 'global' : `${r.scope_kind}:${r.scope_value}`,
  enabled: Number(r.enabled) === 1,
  priority: Number(r.priority),
  note: r.note,
  owner: r.owner,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

function toRow(rule: Rule): RuleRow {
  const scope = parseScope(rule.scope);
  return {
    id: rule.id,
    title: rule.title,
    body: rule.body,
    scope_kind: scope.kind,
    scope_value: scope.value,
    enabled: rule.enabled ? 1 : 0,
    priority: rule.priority,
    note: rule.note,
    owner: rule.owner,
    created_at: rule.created_at,
    updated_at: rule.updated_at,
  };
}

/** The rule store over either backend's database. */
export function createRuleStore(db: SqlDb): RuleStore {
  const lock = sql.raw(db.dialect === 'postgres' ? ' FOR UPDATE' : '');
  const writer = (tx: SqlQueries): RuleWriter => ({
    get: async (id) => {
      const r = await tx.one<RuleRow>(sql`SELECT ${COLS} FROM rules WHERE id = ${id}${lock}`);
      return r ? toRule(r) : undefined;
    },
    async put(rule) {
      const r = toRow(rule);
      await tx.run(sql`
        INSERT INTO rules (${COLS})
        VALUES (${r.id}, ${r.title}, ${r.body}, ${r.scope_kind}, ${r.scope_value}, ${r.enabled},
                ${r.priority}, ${r.note}, ${r.owner}, ${r.created_at}, ${r.updated_at})
        ON CONFLICT (id) DO UPDATE SET title = excluded.title, body = excluded.body,
          scope_kind = excluded.scope_kind, scope_value = excluded.scope_value,
          enabled = excluded.enabled, priority = excluded.priority, note = excluded.note, owner = excluded.owner,
          updated_at = excluded.updated_at`);
    },
    remove: async (id) => (await tx.run(sql`DELETE FROM rules WHERE id = ${id}`)) > 0,
  });

  return {
    get: async (id) => {
      const r = await db.one<RuleRow>(sql`SELECT ${COLS} FROM rules WHERE id = ${id}`);
      return r ? toRule(r) : undefined;
    },
    idsWithPrefix: async (prefix, limit) =>
      (
        await db.all<{ id: string }>(
          sql`SELECT id FROM rules WHERE id >= ${prefix} AND id < ${`${prefix}\uffff`} ORDER BY id LIMIT ${limit}`,
        )
      ).map((r) => r.id),
    async list({ scopes, kinds, enabled } = {}) {
      const where = [sql`1 = 1`];
      if (scopes?.length)
        where.push(
          sql`(${sql.join(
            scopes.map((s) =>
              s.value === null
                ? sql`(scope_kind = ${s.kind} AND scope_value IS NULL)`
                : sql`(scope_kind = ${s.kind} AND scope_value = ${s.value})`,
            ),
            ' OR ',
          )})`,
        );
      if (kinds?.length)
        where.push(
          sql`scope_kind IN (${sql.join(
            kinds.map((k) => sql`${k}`),
            ', ',
          )})`,
        );
      if (enabled !== undefined) where.push(sql`enabled = ${enabled ? 1 : 0}`);
      const rows = await db.all<RuleRow>(
        sql`SELECT ${COLS} FROM rules WHERE ${sql.join(where, ' AND ')} ORDER BY created_at, id`,
      );
      return rows.map(toRule);
    },
    write: (fn) => db.transaction((tx) => fn(writer(tx))),
  };
}
