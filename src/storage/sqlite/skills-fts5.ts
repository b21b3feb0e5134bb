/**
 * Skills' full text on SQLite: the FTS5 table `skills_fts` (migration 004) follows the skills
 * through triggers and ranks with bm25(6, 3, 1); which fields each term matches comes from one
 * column-filtered MATCH per term and field (skills are few).
 */
import type { SkillField } from '../../ports/skills-store.js';
import { SKILL_COLS, type SkillSqlRow, type SkillsFullText, skillFilter, toSkill } from '../skills-store.js';
import { sql } from '../sql.js';
import { anyTermsExpr, termExpr } from './fts-query.js';

const FIELDS: readonly SkillField[] = ['name', 'description', 'body'];
const COLS = sql.raw(
  SKILL_COLS.split(', ')
    .map((c) => `s.${c}`)
    .join(', '),
);

export const sqliteSkillsText: SkillsFullText = {
  search(db, query, filter, limit) {
    const where = skillFilter(filter, 's.');
    const total = db.one<{ n: number }>(sql`SELECT COUNT(*) AS n FROM skills s WHERE ${where}`)!.n;
    const expr = anyTermsExpr(query);
    if (!expr) return { total, termDocs: query.terms.map(() => 0), candidates: [] };
    const rows = db.all<SkillSqlRow & { rank: number }>(sql`
      SELECT ${COLS}, f.rank AS rank FROM skills_fts f JOIN skills s ON s.id = f.rowid
      WHERE skills_fts MATCH ${expr} AND ${where} ORDER BY f.rank LIMIT ${limit}`);
    const byId = new Map(
      rows.map((r) => [
        Number(r.id),
        {
          row: toSkill(r),
          bm25: -r.rank,
          matched: { name: [], description: [], body: [] } as Record<SkillField, number[]>,
        },
      ]),
    );
    const ids = (e: string) =>
      db.all<{ id: number }>(sql`
        SELECT f.rowid AS id FROM skills_fts f JOIN skills s ON s.id = f.rowid
        WHERE skills_fts MATCH ${e} AND ${where}`);
    const termDocs = query.terms.map((t, i) => {
      const te = termExpr(t);
      if (!te) return 0;
      for (const field of FIELDS)
        for (const r of ids(`${field} : (${te})`)) byId.get(r.id)?.matched[field].push(i);
      return ids(te).length;
    });
    return { total, termDocs, candidates: [...byId.values()] };
  },
};
