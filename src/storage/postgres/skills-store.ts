/**
 * PostgreSQL implementation of the SkillsStore port (schema: migrations/004-skills.ts), the twin of
 * sqlite/skills-store.ts. Where SQLite runs several cheap statements, this fetches in one round
 * trip: `search` computes the candidates, their matched fields, the per-term document counts and
 * the total in one statement, `trust` its three counts in one, `upsertTest` reports whether it
 * created the row through `RETURNING`.
 */
import { TapedeckError } from '../../core/errors.js';
import type { ParsedQuery } from '../../core/query.js';
import { SKILL_OUTCOMES, type SkillOutcome, type SkillStage } from '../../core/skill.js';
import type {
  ProposalStatus,
  SkillCheckRow,
  SkillField,
  SkillListFilter,
  SkillOutcomeRow,
  SkillProposalRow,
  SkillRow,
  SkillSearchResult,
  SkillsReader,
  SkillsStore,
  SkillsWriter,
  SkillVersionRow,
  TrustCounts,
} from '../../ports/skills-store.js';
import { type Bm25Row, bm25, bm25Stats, candidatesSql, compileQuery, Fts5Row } from './fts5-rank.js';
import { TsvectorBuilder } from './fts5-text.js';
import type { PgStore } from './open.js';
import { isUniqueViolation, pgGuard } from './skill-wiki-guard.js';
import { Params } from './sql-params.js';
import type { PgSync } from './sync-client.js';

interface Row {
  id: number;
  space: string;
  name: string;
  description: string;
  head: string;
  body: string;
  version: number;
  stage: SkillStage;
  created_at: string;
  updated_at: string;
}

/** Every column but the search vector. */
const COLS = 'id, space, name, description, head, body, version, stage, created_at, updated_at';

const toSkill = (r: Row): SkillRow => ({
  id: r.id,
  space: r.space,
  name: r.name,
  description: r.description,
  head: r.head,
  body: r.body,
  version: r.version,
  stage: r.stage,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const toVersion = (r: Record<string, unknown>): SkillVersionRow => ({
  version: r.version as number,
  description: r.description as string,
  head: r.head as string,
  body: r.body as string,
  note: (r.note as string | null) ?? null,
  createdAt: r.created_at as string,
});

const toProposal = (r: Record<string, unknown>): SkillProposalRow => ({
  id: r.id as string,
  skillId: r.skill_id as number,
  baseVersion: r.base_version as number,
  description: r.description as string,
  head: r.head as string,
  body: r.body as string,
  note: (r.note as string | null) ?? null,
  status: r.status as ProposalStatus,
  createdAt: r.created_at as string,
  decidedAt: (r.decided_at as string | null) ?? null,
});

function filterSql(filter: SkillListFilter, p: Params, alias = ''): string {
  let sql = `${alias}space = ${p.add(filter.space)}`;
  if (filter.stages?.length) sql += ` AND ${alias}stage = ANY(${p.add(filter.stages)}::text[])`;
  return sql;
}

/** FTS5's column order and bm25 weights of skills_fts (SQLite migration 004). */
const FIELDS: readonly SkillField[] = ['name', 'description', 'body'];
const BM25_WEIGHTS = [6, 3, 1];

/** The search vector and token count of a skill's text. */
function ftsOf(name: string, description: string, body: string): [string, number] {
  const v = new TsvectorBuilder();
  const n = v.text(name, 'A') + v.gap(8).text(description, 'B') + v.gap(8).text(body, 'D');
  return [v.toString(), n];
}

/**
 * SQLite's search: candidates ranked by FTS5's bm25(6, 3, 1) (ties by id), the fields each term
 * matches in them, and each term's document count in the filter. One round trip: the GIN index
 * returns the rows that may match, and fts5-rank.ts matches and ranks them as FTS5 does.
 */
function search(pg: PgSync, query: ParsedQuery, filter: SkillListFilter, limit: number): SkillSearchResult {
  const p = new Params();
  const compiled = compileQuery(query);
  const where = filterSql(filter, p);
  const sql = candidatesSql(query, compiled, 'skills', COLS, where, (v) => p.add(v));
  if (!sql) {
    const total = pg.one<{ n: number }>(`SELECT count(*)::int AS n FROM skills WHERE ${where}`, p.values)!.n;
    return { total, termDocs: query.terms.map(() => 0), candidates: [] };
  }
  const rows = pg.query<Row & Bm25Row & { total: number }>(
    `SELECT (SELECT count(*) FROM skills WHERE ${where})::int AS total, x.* FROM (${sql}) x`,
    p.values,
  );
  const stats = bm25Stats(rows[0]!);
  const termDocs = query.terms.map(() => 0);
  const hits: { r: Row; fts: Fts5Row; bm25: number }[] = [];
  for (const r of rows) {
    if (r.id === null) continue;
    const fts = new Fts5Row(compiled, [r.name, r.description, r.body]);
    compiled.terms.forEach((t, i) => {
      if (fts.matches(t)) termDocs[i]!++;
    });
    if (fts.matchesQuery()) hits.push({ r, fts, bm25: bm25(fts, stats, BM25_WEIGHTS) });
  }
  hits.sort((a, b) => b.bm25 - a.bm25 || a.r.id - b.r.id);
  return {
    total: rows[0]!.total,
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
}

function trust(pg: PgSync, skillIds: readonly number[]): Map<number, TrustCounts> {
  const out = new Map<number, TrustCounts>();
  if (skillIds.length === 0) return out;
  const blank = (): TrustCounts => ({
    passedChecks: 0,
    failedChecks: 0,
    successfulOutcomes: 0,
    evidence: 0,
    outcomes: Object.fromEntries(SKILL_OUTCOMES.map((o) => [o, 0])) as Record<SkillOutcome, number>,
  });
  for (const id of skillIds) out.set(id, blank());
  // Per test case, only its latest result on the skill's current version counts (as on SQLite).
  const rows = pg.query<{
    kind: 'check' | 'outcome' | 'evidence';
    id: number;
    value: string | null;
    n: number;
  }>(
    `SELECT 'check' AS kind, c.skill_id AS id, c.result AS value, count(*)::int AS n
       FROM skill_checks c JOIN skills s ON s.id = c.skill_id
       WHERE c.skill_id = ANY($1::bigint[]) AND c.version = s.version
         AND c.id = (SELECT max(c2.id) FROM skill_checks c2
                     WHERE c2.skill_id = c.skill_id AND c2.test = c.test AND c2.version = c.version)
       GROUP BY c.skill_id, c.result
     UNION ALL
     SELECT 'outcome', o.skill_id, o.outcome, count(*)::int
       FROM skill_outcomes o JOIN skills s ON s.id = o.skill_id
       WHERE o.skill_id = ANY($1::bigint[]) AND o.version = s.version
       GROUP BY o.skill_id, o.outcome
     UNION ALL
     SELECT 'evidence', skill_id, NULL, count(*)::int
       FROM skill_evidence WHERE skill_id = ANY($1::bigint[]) GROUP BY skill_id`,
    [skillIds],
  );
  for (const r of rows) {
    const c = out.get(r.id);
    if (!c) continue;
    if (r.kind === 'check') {
      if (r.value === 'passed') c.passedChecks = r.n;
      else c.failedChecks = r.n;
    } else if (r.kind === 'outcome') {
      c.outcomes[r.value as SkillOutcome] = r.n;
      if (r.value === 'completed') c.successfulOutcomes = r.n;
    } else c.evidence = r.n;
  }
  return out;
}

export function createPgSkillsStore({ pg }: PgStore): SkillsStore {
  const reader: SkillsReader = {
    get: (space, name) => {
      const r = pg.one<Row>(`SELECT ${COLS} FROM skills WHERE space = $1 AND name = $2`, [space, name]);
      return r ? toSkill(r) : undefined;
    },
    list(filter) {
      const p = new Params();
      return pg
        .query<Row>(`SELECT ${COLS} FROM skills WHERE ${filterSql(filter, p)} ORDER BY name`, p.values)
        .map(toSkill);
    },
    search: (query, filter, limit) => search(pg, query, filter, limit),
    version: (skillId, version) => {
      const r = pg.one(
        'SELECT version, description, head, body, note, created_at FROM skill_versions WHERE skill_id = $1 AND version = $2',
        [skillId, version],
      );
      return r ? toVersion(r) : undefined;
    },
    versions: (skillId) =>
      pg
        .query(
          'SELECT version, description, head, body, note, created_at FROM skill_versions WHERE skill_id = $1 ORDER BY version',
          [skillId],
        )
        .map(toVersion),
    evidence: (skillId) =>
      pg
        .query<{ uri: string; note: string | null; created_at: string }>(
          'SELECT uri, note, created_at FROM skill_evidence WHERE skill_id = $1 ORDER BY created_at, uri',
          [skillId],
        )
        .map((r) => ({ uri: r.uri, note: r.note ?? null, createdAt: r.created_at })),
    tests: (skillId) =>
      pg
        .query<{ name: string; check_text: string; created_at: string }>(
          'SELECT name, check_text, created_at FROM skill_tests WHERE skill_id = $1 ORDER BY name',
          [skillId],
        )
        .map((r) => ({ name: r.name, check: r.check_text, createdAt: r.created_at })),
    checks: (skillId, limit): SkillCheckRow[] =>
      pg
        .query<Record<string, unknown>>(
          'SELECT test, version, result, note, created_at FROM skill_checks WHERE skill_id = $1 ORDER BY id DESC LIMIT $2',
          [skillId, limit],
        )
        .map((r) => ({
          test: r.test as string,
          version: r.version as number,
          result: r.result as 'passed' | 'failed',
          note: (r.note as string | null) ?? null,
          createdAt: r.created_at as string,
        })),
    outcomes: (skillId, limit): SkillOutcomeRow[] =>
      pg
        .query<Record<string, unknown>>(
          'SELECT version, outcome, note, created_at FROM skill_outcomes WHERE skill_id = $1 ORDER BY id DESC LIMIT $2',
          [skillId, limit],
        )
        .map((r) => ({
          version: r.version as number,
          outcome: r.outcome as SkillOutcome,
          note: (r.note as string | null) ?? null,
          createdAt: r.created_at as string,
        })),
    trust: (skillIds) => trust(pg, skillIds),
    proposals: (skillId, status) =>
      (status
        ? pg.query(
            'SELECT * FROM skill_proposals WHERE skill_id = $1 AND status = $2 ORDER BY created_at, id',
            [skillId, status],
          )
        : pg.query('SELECT * FROM skill_proposals WHERE skill_id = $1 ORDER BY created_at, id', [skillId])
      ).map(toProposal),
  };

  const writer: SkillsWriter = {
    ...reader,
    insertSkill(row) {
      try {
        return pg.one<{ id: number }>(
          `INSERT INTO skills (space, name, description, head, body, version, stage, created_at, updated_at, fts, ntok)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id`,
          [
            row.space,
            row.name,
            row.description,
            row.head,
            row.body,
            row.version,
            row.stage,
            row.createdAt,
            row.updatedAt,
            ...ftsOf(row.name, row.description, row.body),
          ],
        )!.id;
      } catch (e) {
        // Only reachable by a writer outside the store's write lock; same words as the service.
        if (isUniqueViolation(e))
          throw new TapedeckError(
            'CONFLICT',
            `Skill "${row.name}" already exists in space ${row.space}; change it with \`tapedeck skills update\``,
          );
        throw e;
      }
    },
    updateContent(id, c) {
      // The vector covers the name too (which never changes): one more round trip, on a rare write.
      const name = pg.one<{ name: string }>('SELECT name FROM skills WHERE id = $1', [id])?.name ?? '';
      const [fts, ntok] = ftsOf(name, c.description, c.body);
      pg.run(
        `UPDATE skills SET description = $1, head = $2, body = $3, version = $4, updated_at = $5,
           fts = $6, ntok = $7 WHERE id = $8`,
        [c.description, c.head, c.body, c.version, c.updatedAt, fts, ntok, id],
      );
    },
    insertVersion(skillId, v) {
      pg.run(
        'INSERT INTO skill_versions (skill_id, version, description, head, body, note, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
        [skillId, v.version, v.description, v.head, v.body, v.note, v.createdAt],
      );
    },
    setStage(id, stage, at) {
      pg.run('UPDATE skills SET stage = $1, updated_at = $2 WHERE id = $3', [stage, at, id]);
    },
    addEvidence: (skillId, e) =>
      pg.run(
        'INSERT INTO skill_evidence (skill_id, uri, note, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING',
        [skillId, e.uri, e.note, e.createdAt],
      ) > 0,
    removeEvidence: (skillId, uri) =>
      pg.run('DELETE FROM skill_evidence WHERE skill_id = $1 AND uri = $2', [skillId, uri]) > 0,
    upsertTest: (skillId, t) =>
      // xmax is 0 on a freshly inserted row: created, in the same round trip as the upsert.
      pg.one<{ created: boolean }>(
        `INSERT INTO skill_tests (skill_id, name, check_text, created_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (skill_id, name) DO UPDATE SET check_text =
           CASE WHEN excluded.check_text = '' THEN skill_tests.check_text ELSE excluded.check_text END
         RETURNING (xmax = 0) AS created`,
        [skillId, t.name, t.check, t.createdAt],
      )!.created,
    addCheck(skillId, c) {
      pg.run(
        'INSERT INTO skill_checks (skill_id, test, version, result, note, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
        [skillId, c.test, c.version, c.result, c.note, c.createdAt],
      );
    },
    addOutcome(skillId, o) {
      pg.run(
        'INSERT INTO skill_outcomes (skill_id, version, outcome, note, created_at) VALUES ($1, $2, $3, $4, $5)',
        [skillId, o.version, o.outcome, o.note, o.createdAt],
      );
    },
    insertProposal(p) {
      pg.run(
        `INSERT INTO skill_proposals (id, skill_id, base_version, description, head, body, note, status, created_at, decided_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [
          p.id,
          p.skillId,
          p.baseVersion,
          p.description,
          p.head,
          p.body,
          p.note,
          p.status,
          p.createdAt,
          p.decidedAt,
        ],
      );
    },
    decideProposal(id, status, at) {
      pg.run("UPDATE skill_proposals SET status = $1, decided_at = $2 WHERE id = $3 AND status = 'pending'", [
        status,
        at,
        id,
      ]);
    },
  };

  const guarded = Object.fromEntries(
    Object.entries(reader).map(([k, fn]) => [
      k,
      (...args: unknown[]) => pgGuard(() => (fn as (...a: unknown[]) => unknown)(...args)),
    ]),
  ) as unknown as SkillsReader;

  return {
    ...guarded,
    write: (fn) => pgGuard(() => pg.transaction(() => fn(writer), 'write')),
  };
}
