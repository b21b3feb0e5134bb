/**
 * `tapedeck redact`: every text value of every table masked again with today's rules, for a
 * store written before the rules knew a kind. Generic over the schema (PRAGMA table_list /
 * table_info), so a table or column added later is covered without a change here. Full-text
 * indexes follow: the steps' index row by row (old text out, masked text in), wiki and skills by
 * their triggers, the memories' contentless one by re-saving each changed memory through its
 * store, and cached term statistics holding a secret are dropped.
 */
import { redact } from '../../core/redact.js';
import type { RemaskSummary } from '../../ports/stores.js';
import type { Db } from './open.js';

interface TableInfo {
  name: string;
  type: string;
}
interface ColumnInfo {
  name: string;
  type: string;
  pk: number;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Count (and with `apply`, write) the values today's rules would mask. `resaveMemories` gets the
 * ids of memories whose row changed, to re-index them (their index keeps no content to rebuild from).
 */
export function remaskSqlite(db: Db, apply: boolean, resaveMemories: (ids: string[]) => void): RemaskSummary {
  const tables = (db.pragma('table_list') as TableInfo[]).filter(
    (t) => t.type === 'table' && !t.name.startsWith('sqlite_'),
  );
  const summary: RemaskSummary = { values: 0, rows: 0, tables: {}, applied: apply };
  const changedMemories: string[] = [];
  const FTS_COLUMNS = 'prompt, response, reasoning, tool_call, tool_output, idents, tool_idents';
  const ftsDelete = db.prepare(
    `INSERT INTO steps_fts(steps_fts, rowid, ${FTS_COLUMNS}) SELECT 'delete', id, ${FTS_COLUMNS} FROM steps_fts_content WHERE id = ?`,
  );
  const ftsInsert = db.prepare(
    `INSERT INTO steps_fts(rowid, ${FTS_COLUMNS}) SELECT id, ${FTS_COLUMNS} FROM steps_fts_content WHERE id = ?`,
  );
  const run = () => {
    for (const { name } of tables) {
      const columns = db.pragma(`table_info(${quote(name)})`) as ColumnInfo[];
      const text = columns.filter((c) => c.pk === 0 && /CHAR|CLOB|TEXT|^$/i.test(c.type)).map((c) => c.name);
      if (text.length === 0) continue;
      const keys = columns.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
      const withoutRowid = /WITHOUT ROWID/i.test(
        (db.prepare('SELECT sql FROM sqlite_schema WHERE name = ?').get(name) as { sql: string } | undefined)
          ?.sql ?? '',
      );
      // A cache of term statistics: a term that is a secret is dropped (it is recomputed).
      if (withoutRowid && name === 'term_df') {
        const terms = db.prepare('SELECT term FROM term_df').pluck().all() as string[];
        const bad = terms.filter((t) => redact(t).redactions > 0);
        summary.values += bad.length;
        if (bad.length) summary.tables[name] = bad.length;
        if (apply) for (const t of bad) db.prepare('DELETE FROM term_df WHERE term = ?').run(t);
        continue;
      }
      if (withoutRowid && keys.length === 0) continue;
      const id = withoutRowid ? keys.map((k) => quote(k.name)) : ['rowid'];
      const cols = [...id, ...text.map(quote)].join(', ');
      // In pages by rowid: updating while a statement iterates the same connection is refused,
      // and a whole transcript table does not fit in memory.
      const page = withoutRowid
        ? null
        : db.prepare(`SELECT ${cols} FROM ${quote(name)} WHERE rowid > ? ORDER BY rowid LIMIT 500`).raw();
      const rows = function* (): Generator<unknown[]> {
        if (page === null) {
          yield* db
            .prepare(`SELECT ${cols} FROM ${quote(name)}`)
            .raw()
            .all() as unknown[][];
          return;
        }
        let after = -Infinity;
        for (;;) {
          const batch = page.all(after) as unknown[][];
          if (batch.length === 0) return;
          yield* batch;
          after = batch[batch.length - 1][0] as number;
        }
      };
      const updates = new Map<string, ReturnType<Db['prepare']>>();
      let changedHere = 0;
      for (const row of rows()) {
        const keyValues = row.slice(0, id.length);
        const set: [string, string][] = [];
        text.forEach((col, i) => {
          const v = row[id.length + i];
          if (typeof v !== 'string') return;
          const r = redact(v);
          if (r.redactions > 0) set.push([col, r.text]);
        });
        if (set.length === 0) continue;
        changedHere += set.length;
        summary.rows++;
        if (name === 'memories')
          changedMemories.push(
            String(db.prepare('SELECT id FROM memories WHERE rowid = ?').pluck().get(keyValues[0])),
          );
        if (!apply) continue;
        // Steps are indexed through a view (steps_fts_content): take the old text out of the index first.
        if (name === 'steps') ftsDelete.run(keyValues[0]);
        const changed = set.map(([c]) => c);
        const sqlKey = changed.join('\u0000');
        let stmt = updates.get(sqlKey);
        if (!stmt) {
          stmt = db.prepare(
            `UPDATE ${quote(name)} SET ${changed.map((c) => `${quote(c)} = ?`).join(', ')} WHERE ${id.map((k) => `${k} = ?`).join(' AND ')}`,
          );
          updates.set(sqlKey, stmt);
        }
        stmt.run(...([...set.map(([, v]) => v), ...keyValues] as [string]));
        if (name === 'steps') ftsInsert.run(keyValues[0]);
      }
      if (changedHere) summary.tables[name] = changedHere;
      summary.values += changedHere;
    }
  };
  // Reading and writing one table at a time would let an indexer slip in between: one transaction.
  if (apply) db.transaction(run).immediate();
  else run();
  if (apply && changedMemories.length) resaveMemories(changedMemories);
  return summary;
}
