/**
 * Skills' full text on PostgreSQL: each skill keeps a tsvector built with FTS5's own tokenizer and
 * stemmer (`fts`, GIN-indexed; name A, description B, body D) and its token count (`ntok`). A
 * search computes the candidates, their matched fields, each term's document count and the total
 * in one round trip: the GIN index returns the rows that may match, and fts5-rank.ts matches and
 * ranks them as FTS5's bm25(6, 3, 1) does (ties by id), so hits equal SQLite's.
 */
import type { SkillField } from '../../ports/skills-store.js';
import { SKILL_COLS, type SkillSqlRow, type SkillsFullText, toSkill } from '../skills-store.js';
import { asSql, type Bm25Row, bm25, bm25Stats, candidatesSql, compileQuery, Fts5Row } from './fts5-rank.js';
import { TsvectorBuilder } from './fts5-text.js';

/** FTS5's column order and bm25 weights of skills_fts (SQLite migration 004). */
const FIELDS: readonly SkillField[] = ['name', 'description', 'body'];
const BM25_WEIGHTS = [6, 3, 1];

export const pgSkillsText: SkillsFullText = {
  search(db, query, filter, limit) {
    const compiled = compileQuery(query);
    let count = '';
    const q = asSql((add) => {
      let where = `space = ${add(filter.space)}`;
      if (filter.stages?.length) where += ` AND stage IN (${filter.stages.map((s) => add(s)).join(', ')})`;
      count = `(SELECT count(*) FROM skills WHERE ${where})::int`;
      const found = candidatesSql(query, compiled, 'skills', SKILL_COLS, where, add);
      return found ? `SELECT ${count} AS total, x.* FROM (${found}) x` : `SELECT ${count} AS total`;
    })!;
    const rows = db.all<SkillSqlRow & Bm25Row & { total: number }>(q);
    const total = rows[0]?.total ?? 0;
    const termDocs = query.terms.map(() => 0);
    if (rows[0]?.id === undefined) return { total, termDocs, candidates: [] };
    const stats = bm25Stats(rows[0]);
    const hits: { r: SkillSqlRow; fts: Fts5Row; bm25: number }[] = [];
    for (const r of rows) {
      if (r.id === null) continue;
      const fts = new Fts5Row(compiled, [r.name, r.description, r.body]);
      compiled.terms.forEach((t, i) => {
        if (fts.matches(t)) termDocs[i]!++;
      });
      if (fts.matchesQuery()) hits.push({ r, fts, bm25: bm25(fts, stats, BM25_WEIGHTS) });
    }
    hits.sort((a, b) => b.bm25 - a.bm25 || Number(a.r.id) - Number(b.r.id));
    return {
      total,
      termDocs,
      candidates: hits.slice(0, limit).map(({ r, fts, bm25 }) => {
        const matched = { name: [], description: [], body: [] } as Record<SkillField, number[]>;
        compiled.terms.forEach((t, i) => {
          FIELDS.forEach((f, col) => {
            if (fts.matches(t, col)) matched[f].push(i);
          });
        });
        return { row: toSkill(r), bm25, matched };
      }),
    };
  },

  indexed(name, description, body) {
    const v = new TsvectorBuilder();
    const ntok = v.text(name, 'A') + v.gap(8).text(description, 'B') + v.gap(8).text(body, 'D');
    return { fts: v.toString(), ntok };
  },
};
