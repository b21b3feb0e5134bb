/**
 * The SkillsStore port once for both backends (tables from migration 004), on the synchronous
 * `sql` queries (storage/sql.ts SyncSql: the port is still synchronous). Where the engines differ
 * is full text (`SkillsFullText`, given by the backend): SQLite's FTS5 table follows the skills
 * through triggers; PostgreSQL keeps a tsvector beside each skill, which every write of the text
 * also sets. A write runs in one transaction: SQLite's IMMEDIATE, the PostgreSQL client's write
 * transaction.
 */
import { TapedeckError } from '../core/errors.js';
import type { ParsedQuery } from '../core/query.js';
import { SKILL_OUTCOMES, type SkillOutcome, type SkillStage } from '../core/skill.js';
import type {
  ProposalStatus,
  SkillCheckRow,
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
} from '../ports/skills-store.js';
import { type Sql, type SyncSql, sql } from './sql.js';

/** A skills row as both engines return it. */
export interface SkillSqlRow {
  id: number | string;
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

/** Every column but PostgreSQL's search vector. */
export const SKILL_COLS = 'id, space, name, description, head, body, version, stage, created_at, updated_at';
const COLS = sql.raw(SKILL_COLS);

export const toSkill = (r: SkillSqlRow): SkillRow => ({
  id: Number(r.id),
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

/** The full-text side, the one place the engines differ. */
export interface SkillsFullText {
  /** See SkillsReader.search. */
  search(db: SyncSql, query: ParsedQuery, filter: SkillListFilter, limit: number): SkillSearchResult;
  /** The search vector and token count a write of the text also sets, where no trigger keeps an index. */
  indexed?(name: string, description: string, body: string): { fts: string; ntok: number };
}

/** The filter as SQL on the skills table (`alias` its name in the query, e.g. `s.`). */
export function skillFilter(filter: SkillListFilter, alias = ''): Sql {
  const a = sql.raw(alias);
  const stages = filter.stages?.length
    ? sql` AND ${a}stage IN (${sql.join(
        filter.stages.map((s) => sql`${s}`),
        ', ',
      )})`
    : sql``;
  return sql`${a}space = ${filter.space}${stages}`;
}

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
  skillId: Number(r.skill_id),
  baseVersion: r.base_version as number,
  description: r.description as string,
  head: r.head as string,
  body: r.body as string,
  note: (r.note as string | null) ?? null,
  status: r.status as ProposalStatus,
  createdAt: r.created_at as string,
  decidedAt: (r.decided_at as string | null) ?? null,
});

const blankTrust = (): TrustCounts => ({
  passedChecks: 0,
  failedChecks: 0,
  successfulOutcomes: 0,
  evidence: 0,
  outcomes: Object.fromEntries(SKILL_OUTCOMES.map((o) => [o, 0])) as Record<SkillOutcome, number>,
});

/** Ids per trust statement: far below SQLite's bound-parameter limit (three lists each). */
const TRUST_CHUNK = 500;

function trust(db: SyncSql, skillIds: readonly number[]): Map<number, TrustCounts> {
  const out = new Map<number, TrustCounts>();
  for (const id of skillIds) out.set(id, blankTrust());
  for (let i = 0; i < skillIds.length; i += TRUST_CHUNK) {
    const ids = () =>
      sql.join(
        skillIds.slice(i, i + TRUST_CHUNK).map((id) => sql`${id}`),
        ', ',
      );
    // Per test case, only its latest result on the skill's current version counts.
    const rows = db.all<{
      kind: 'check' | 'outcome' | 'evidence';
      id: number | string;
      value: string | null;
      n: number;
    }>(sql`
      SELECT 'check' AS kind, c.skill_id AS id, c.result AS value, CAST(count(*) AS INTEGER) AS n
        FROM skill_checks c JOIN skills s ON s.id = c.skill_id
        WHERE c.skill_id IN (${ids()}) AND c.version = s.version
          AND c.id = (SELECT max(c2.id) FROM skill_checks c2
                      WHERE c2.skill_id = c.skill_id AND c2.test = c.test AND c2.version = c.version)
        GROUP BY c.skill_id, c.result
      UNION ALL
      SELECT 'outcome', o.skill_id, o.outcome, CAST(count(*) AS INTEGER)
        FROM skill_outcomes o JOIN skills s ON s.id = o.skill_id
        WHERE o.skill_id IN (${ids()}) AND o.version = s.version
        GROUP BY o.skill_id, o.outcome
      UNION ALL
      SELECT 'evidence', skill_id, NULL, CAST(count(*) AS INTEGER)
        FROM skill_evidence WHERE skill_id IN (${ids()}) GROUP BY skill_id`);
    for (const r of rows) {
      const c = out.get(Number(r.id));
      if (!c) continue;
      if (r.kind === 'check') {
        if (r.value === 'passed') c.passedChecks = r.n;
        else c.failedChecks = r.n;
      } else if (r.kind === 'outcome') {
        c.outcomes[r.value as SkillOutcome] = r.n;
        if (r.value === 'completed') c.successfulOutcomes = r.n;
      } else c.evidence = r.n;
    }
  }
  return out;
}

export function createSkillsStore(db: SyncSql, text: SkillsFullText): SkillsStore {
  /** The vector columns a write of the text sets (none on SQLite: triggers). */
  const vector = (name: string, description: string, body: string) => {
    const v = text.indexed?.(name, description, body);
    return v
      ? {
          cols: sql`, fts, ntok`,
          values: sql`, ${v.fts}, ${v.ntok}`,
          set: sql`, fts = ${v.fts}, ntok = ${v.ntok}`,
        }
      : { cols: sql``, values: sql``, set: sql`` };
  };

  const reader: SkillsReader = {
    get(space, name) {
      const r = db.one<SkillSqlRow>(
        sql`SELECT ${COLS} FROM skills WHERE space = ${space} AND name = ${name}`,
      );
      return r ? toSkill(r) : undefined;
    },
    list: (filter) =>
      db
        .all<SkillSqlRow>(sql`SELECT ${COLS} FROM skills WHERE ${skillFilter(filter)} ORDER BY name`)
        .map(toSkill),
    search: (query, filter, limit) => text.search(db, query, filter, limit),
    version(skillId, version) {
      const r = db.one<Record<string, unknown>>(sql`
        SELECT version, description, head, body, note, created_at FROM skill_versions
        WHERE skill_id = ${skillId} AND version = ${version}`);
      return r ? toVersion(r) : undefined;
    },
    versions: (skillId) =>
      db
        .all<Record<string, unknown>>(sql`
          SELECT version, description, head, body, note, created_at FROM skill_versions
          WHERE skill_id = ${skillId} ORDER BY version`)
        .map(toVersion),
    evidence: (skillId) =>
      db
        .all<{ uri: string; note: string | null; created_at: string }>(
          sql`SELECT uri, note, created_at FROM skill_evidence WHERE skill_id = ${skillId} ORDER BY created_at, uri`,
        )
        .map((r) => ({ uri: r.uri, note: r.note ?? null, createdAt: r.created_at })),
    tests: (skillId) =>
      db
        .all<{ name: string; check_text: string; created_at: string }>(
          sql`SELECT name, check_text, created_at FROM skill_tests WHERE skill_id = ${skillId} ORDER BY name`,
        )
        .map((r) => ({ name: r.name, check: r.check_text, createdAt: r.created_at })),
    checks: (skillId, limit): SkillCheckRow[] =>
      db
        .all<Record<string, unknown>>(sql`
          SELECT test, version, result, note, created_at FROM skill_checks
          WHERE skill_id = ${skillId} ORDER BY id DESC LIMIT ${limit}`)
        .map((r) => ({
          test: r.test as string,
          version: r.version as number,
          result: r.result as 'passed' | 'failed',
          note: (r.note as string | null) ?? null,
          createdAt: r.created_at as string,
        })),
    outcomes: (skillId, limit): SkillOutcomeRow[] =>
      db
        .all<Record<string, unknown>>(sql`
          SELECT version, outcome, note, created_at FROM skill_outcomes
          WHERE skill_id = ${skillId} ORDER BY id DESC LIMIT ${limit}`)
        .map((r) => ({
          version: r.version as number,
          outcome: r.outcome as SkillOutcome,
          note: (r.note as string | null) ?? null,
          createdAt: r.created_at as string,
        })),
    trust: (skillIds) => trust(db, skillIds),
    proposals: (skillId, status) =>
      db
        .all<Record<string, unknown>>(sql`
          SELECT * FROM skill_proposals WHERE skill_id = ${skillId}
          ${status ? sql`AND status = ${status}` : sql``} ORDER BY created_at, id`)
        .map(toProposal),
  };

  const writer: SkillsWriter = {
    ...reader,
    insertSkill(row) {
      const v = vector(row.name, row.description, row.body);
      try {
        const r = db.one<{ id: number | string }>(sql`
          INSERT INTO skills (space, name, description, head, body, version, stage, created_at, updated_at${v.cols})
          VALUES (${row.space}, ${row.name}, ${row.description}, ${row.head}, ${row.body}, ${row.version},
            ${row.stage}, ${row.createdAt}, ${row.updatedAt}${v.values})
          RETURNING id`);
        return Number(r!.id);
      } catch (e) {
        // Only reachable by a writer outside the store's write transaction; same words as the service.
        if (e instanceof TapedeckError && e.code === 'CONFLICT')
          throw new TapedeckError(
            'CONFLICT',
            `Skill "${row.name}" already exists in space ${row.space}; change it with \`tapedeck skills update\``,
          );
        throw e;
      }
    },
    updateContent(id, c) {
      // A vector covers the name too (which never changes): read it first, on a rare write.
      const name = text.indexed
        ? (db.one<{ name: string }>(sql`SELECT name FROM skills WHERE id = ${id}`)?.name ?? '')
        : '';
      db.run(sql`
        UPDATE skills SET description = ${c.description}, head = ${c.head}, body = ${c.body},
          version = ${c.version}, updated_at = ${c.updatedAt}${vector(name, c.description, c.body).set}
        WHERE id = ${id}`);
    },
    insertVersion(skillId, v) {
      db.run(sql`
        INSERT INTO skill_versions (skill_id, version, description, head, body, note, created_at)
        VALUES (${skillId}, ${v.version}, ${v.description}, ${v.head}, ${v.body}, ${v.note}, ${v.createdAt})`);
    },
    setStage(id, stage, at) {
      db.run(sql`UPDATE skills SET stage = ${stage}, updated_at = ${at} WHERE id = ${id}`);
    },
    addEvidence: (skillId, e) =>
      db.run(sql`
        INSERT INTO skill_evidence (skill_id, uri, note, created_at)
        VALUES (${skillId}, ${e.uri}, ${e.note}, ${e.createdAt}) ON CONFLICT DO NOTHING`) > 0,
    removeEvidence: (skillId, uri) =>
      db.run(sql`DELETE FROM skill_evidence WHERE skill_id = ${skillId} AND uri = ${uri}`) > 0,
    upsertTest(skillId, t) {
      const existed = !!db.one(
        sql`SELECT 1 AS x FROM skill_tests WHERE skill_id = ${skillId} AND name = ${t.name}`,
      );
      db.run(sql`
        INSERT INTO skill_tests (skill_id, name, check_text, created_at)
        VALUES (${skillId}, ${t.name}, ${t.check}, ${t.createdAt})
        ON CONFLICT (skill_id, name) DO UPDATE SET check_text =
          CASE WHEN excluded.check_text = '' THEN skill_tests.check_text ELSE excluded.check_text END`);
      return !existed;
    },
    addCheck(skillId, c) {
      db.run(sql`
        INSERT INTO skill_checks (skill_id, test, version, result, note, created_at)
        VALUES (${skillId}, ${c.test}, ${c.version}, ${c.result}, ${c.note}, ${c.createdAt})`);
    },
    addOutcome(skillId, o) {
      db.run(sql`
        INSERT INTO skill_outcomes (skill_id, version, outcome, note, created_at)
        VALUES (${skillId}, ${o.version}, ${o.outcome}, ${o.note}, ${o.createdAt})`);
    },
    insertProposal(p) {
      db.run(sql`
        INSERT INTO skill_proposals
          (id, skill_id, base_version, description, head, body, note, status, created_at, decided_at)
        VALUES (${p.id}, ${p.skillId}, ${p.baseVersion}, ${p.description}, ${p.head}, ${p.body}, ${p.note},
          ${p.status}, ${p.createdAt}, ${p.decidedAt})`);
    },
    decideProposal(id, status, at) {
      db.run(sql`
        UPDATE skill_proposals SET status = ${status}, decided_at = ${at}
        WHERE id = ${id} AND status = 'pending'`);
    },
  };

  return { ...reader, write: (fn) => db.transaction(() => fn(writer)) };
}
