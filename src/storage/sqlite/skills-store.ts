/** SQLite implementation of the SkillsStore port. */
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
  SkillsReader,
  SkillsStore,
  SkillsWriter,
  SkillVersionRow,
  TrustCounts,
} from '../../ports/skills-store.js';
import { anyTermsExpr, termExpr } from './fts-query.js';
import { lazyStatements } from './lazy-statements.js';
import { type Db, sqliteGuard } from './open.js';

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

const FIELDS: readonly SkillField[] = ['name', 'description', 'body'];

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

function stageSql(filter: SkillListFilter, alias = ''): { sql: string; params: unknown[] } {
  const params: unknown[] = [filter.space];
  let sql = `${alias}space = ?`;
  if (filter.stages?.length) {
    sql += ` AND ${alias}stage IN (${filter.stages.map(() => '?').join(',')})`;
    params.push(...filter.stages);
  }
  return { sql, params };
}

export function createSqliteSkillsStore(db: Db, path = 'tapedeck.db'): SkillsStore {
  const guard = sqliteGuard(path);
  const stmt = lazyStatements(db, {
    get: 'SELECT * FROM skills WHERE space = ? AND name = ?',
    version: 'SELECT * FROM skill_versions WHERE skill_id = ? AND version = ?',
    versions: 'SELECT * FROM skill_versions WHERE skill_id = ? ORDER BY version',
    evidence: 'SELECT uri, note, created_at FROM skill_evidence WHERE skill_id = ? ORDER BY created_at, uri',
    tests: 'SELECT name, check_text, created_at FROM skill_tests WHERE skill_id = ? ORDER BY name',
    checks: 'SELECT * FROM skill_checks WHERE skill_id = ? ORDER BY id DESC LIMIT ?',
    outcomes: 'SELECT * FROM skill_outcomes WHERE skill_id = ? ORDER BY id DESC LIMIT ?',
    insert: `INSERT INTO skills (space, name, description, head, body, version, stage, created_at, updated_at)
       VALUES (@space, @name, @description, @head, @body, @version, @stage, @createdAt, @updatedAt)`,
    update: 'UPDATE skills SET description = ?, head = ?, body = ?, version = ?, updated_at = ? WHERE id = ?',
    insertVersion:
      'INSERT INTO skill_versions (skill_id, version, description, head, body, note, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    setStage: 'UPDATE skills SET stage = ?, updated_at = ? WHERE id = ?',
    addEvidence: 'INSERT OR IGNORE INTO skill_evidence (skill_id, uri, note, created_at) VALUES (?, ?, ?, ?)',
    removeEvidence: 'DELETE FROM skill_evidence WHERE skill_id = ? AND uri = ?',
    insertTest: `INSERT INTO skill_tests (skill_id, name, check_text, created_at) VALUES (?, ?, ?, ?)
       ON CONFLICT(skill_id, name) DO UPDATE SET check_text = CASE WHEN excluded.check_text = '' THEN check_text ELSE excluded.check_text END`,
    testExists: 'SELECT 1 FROM skill_tests WHERE skill_id = ? AND name = ?',
    addCheck:
      'INSERT INTO skill_checks (skill_id, test, version, result, note, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    addOutcome:
      'INSERT INTO skill_outcomes (skill_id, version, outcome, note, created_at) VALUES (?, ?, ?, ?, ?)',
    insertProposal: `INSERT INTO skill_proposals (id, skill_id, base_version, description, head, body, note, status, created_at, decided_at)
       VALUES (@id, @skillId, @baseVersion, @description, @head, @body, @note, @status, @createdAt, @decidedAt)`,
    decideProposal:
      "UPDATE skill_proposals SET status = ?, decided_at = ? WHERE id = ? AND status = 'pending'",
    proposals: 'SELECT * FROM skill_proposals WHERE skill_id = ? ORDER BY created_at, id',
    proposalsByStatus:
      'SELECT * FROM skill_proposals WHERE skill_id = ? AND status = ? ORDER BY created_at, id',
  });

  const reader: SkillsReader = {
    get: (space, name) => {
      const r = stmt.get.get(space, name) as Row | undefined;
      return r ? toSkill(r) : undefined;
    },
    list(filter) {
      const { sql, params } = stageSql(filter);
      return (db.prepare(`SELECT * FROM skills WHERE ${sql} ORDER BY name`).all(...params) as Row[]).map(
        toSkill,
      );
    },
    search(query: ParsedQuery, filter, limit) {
      const { sql, params } = stageSql(filter, 's.');
      const total = (
        db.prepare(`SELECT COUNT(*) AS n FROM skills s WHERE ${sql}`).get(...params) as { n: number }
      ).n;
      const empty = { total, termDocs: query.terms.map(() => 0), candidates: [] };
      const expr = anyTermsExpr(query);
      if (!expr) return empty;
      const match = (e: string, cap: number) =>
        db
          .prepare(
            `SELECT s.*, f.rank AS rank FROM skills_fts f JOIN skills s ON s.id = f.rowid
             WHERE skills_fts MATCH ? AND ${sql} ORDER BY f.rank LIMIT ?`,
          )
          .all(e, ...params, cap) as (Row & { rank: number })[];
      const rows = match(expr, limit);
      const byId = new Map(
        rows.map((r) => [
          r.id,
          {
            row: toSkill(r),
            bm25: -r.rank,
            matched: { name: [], description: [], body: [] } as Record<SkillField, number[]>,
          },
        ]),
      );
      const ids = (e: string) =>
        db
          .prepare(
            `SELECT f.rowid AS id FROM skills_fts f JOIN skills s ON s.id = f.rowid WHERE skills_fts MATCH ? AND ${sql}`,
          )
          .all(e, ...params) as { id: number }[];
      const termDocs = query.terms.map((t, i) => {
        const te = termExpr(t);
        if (!te) return 0;
        for (const field of FIELDS)
          for (const r of ids(`${field} : (${te})`)) byId.get(r.id)?.matched[field].push(i);
        return ids(te).length;
      });
      return { total, termDocs, candidates: [...byId.values()] };
    },
    version: (skillId, version) => {
      const r = stmt.version.get(skillId, version) as Record<string, unknown> | undefined;
      return r ? toVersion(r) : undefined;
    },
    versions: (skillId) => (stmt.versions.all(skillId) as Record<string, unknown>[]).map(toVersion),
    evidence: (skillId) =>
      (stmt.evidence.all(skillId) as Record<string, string | null>[]).map((r) => ({
        uri: r.uri as string,
        note: r.note ?? null,
        createdAt: r.created_at as string,
      })),
    tests: (skillId) =>
      (stmt.tests.all(skillId) as Record<string, string>[]).map((r) => ({
        name: r.name,
        check: r.check_text,
        createdAt: r.created_at,
      })),
    checks: (skillId, limit): SkillCheckRow[] =>
      (stmt.checks.all(skillId, limit) as Record<string, unknown>[]).map((r) => ({
        test: r.test as string,
        version: r.version as number,
        result: r.result as 'passed' | 'failed',
        note: (r.note as string | null) ?? null,
        createdAt: r.created_at as string,
      })),
    outcomes: (skillId, limit): SkillOutcomeRow[] =>
      (stmt.outcomes.all(skillId, limit) as Record<string, unknown>[]).map((r) => ({
        version: r.version as number,
        outcome: r.outcome as SkillOutcome,
        note: (r.note as string | null) ?? null,
        createdAt: r.created_at as string,
      })),
    trust(skillIds) {
      const out = new Map<number, TrustCounts>();
      if (skillIds.length === 0) return out;
      const blank = (): TrustCounts => ({
        passedChecks: 0,
        failedChecks: 0,
        successfulOutcomes: 0,
        evidence: 0,
        outcomes: Object.fromEntries(SKILL_OUTCOMES.map((o) => [o, 0])) as Record<SkillOutcome, number>,
      });
      const at = (id: number) => {
        const c = out.get(id) ?? blank();
        out.set(id, c);
        return c;
      };
      for (const id of skillIds) at(id);
      // Chunks keep the number of bound parameters far below SQLite's limit.
      for (let i = 0; i < skillIds.length; i += 500) {
        const ids = skillIds.slice(i, i + 500);
        const marks = ids.map(() => '?').join(',');
        // Per test case, only its latest result on the skill's current version counts.
        const checks = db
          .prepare(
            `SELECT c.skill_id AS id, c.result, COUNT(*) AS n FROM skill_checks c JOIN skills s ON s.id = c.skill_id
             WHERE c.skill_id IN (${marks}) AND c.version = s.version
               AND c.id = (SELECT MAX(c2.id) FROM skill_checks c2
                           WHERE c2.skill_id = c.skill_id AND c2.test = c.test AND c2.version = c.version)
             GROUP BY c.skill_id, c.result`,
          )
          .all(...ids) as { id: number; result: string; n: number }[];
        for (const r of checks) {
          if (r.result === 'passed') at(r.id).passedChecks = r.n;
          else at(r.id).failedChecks = r.n;
        }
        const outcomes = db
          .prepare(
            `SELECT o.skill_id AS id, o.outcome, COUNT(*) AS n FROM skill_outcomes o JOIN skills s ON s.id = o.skill_id
             WHERE o.skill_id IN (${marks}) AND o.version = s.version GROUP BY o.skill_id, o.outcome`,
          )
          .all(...ids) as { id: number; outcome: SkillOutcome; n: number }[];
        for (const r of outcomes) {
          at(r.id).outcomes[r.outcome] = r.n;
          if (r.outcome === 'completed') at(r.id).successfulOutcomes = r.n;
        }
        const evidence = db
          .prepare(
            `SELECT skill_id AS id, COUNT(*) AS n FROM skill_evidence WHERE skill_id IN (${marks}) GROUP BY skill_id`,
          )
          .all(...ids) as { id: number; n: number }[];
        for (const r of evidence) at(r.id).evidence = r.n;
      }
      return out;
    },
    proposals(skillId, status) {
      const rows = status ? stmt.proposalsByStatus.all(skillId, status) : stmt.proposals.all(skillId);
      return (rows as Record<string, unknown>[]).map(toProposal);
    },
  };

  const writer: SkillsWriter = {
    ...reader,
    insertSkill: (row) => Number(stmt.insert.run(row).lastInsertRowid),
    updateContent(id, c) {
      stmt.update.run(c.description, c.head, c.body, c.version, c.updatedAt, id);
    },
    insertVersion(skillId, v) {
      stmt.insertVersion.run(skillId, v.version, v.description, v.head, v.body, v.note, v.createdAt);
    },
    setStage(id, stage, at) {
      stmt.setStage.run(stage, at, id);
    },
    addEvidence: (skillId, e) => stmt.addEvidence.run(skillId, e.uri, e.note, e.createdAt).changes > 0,
    removeEvidence: (skillId, uri) => stmt.removeEvidence.run(skillId, uri).changes > 0,
    upsertTest(skillId, t) {
      const existed = !!stmt.testExists.get(skillId, t.name);
      stmt.insertTest.run(skillId, t.name, t.check, t.createdAt);
      return !existed;
    },
    addCheck(skillId, c) {
      stmt.addCheck.run(skillId, c.test, c.version, c.result, c.note, c.createdAt);
    },
    addOutcome(skillId, o) {
      stmt.addOutcome.run(skillId, o.version, o.outcome, o.note, o.createdAt);
    },
    insertProposal(p) {
      stmt.insertProposal.run(p);
    },
    decideProposal(id, status, at) {
      stmt.decideProposal.run(status, at, id);
    },
  };

  const guarded = Object.fromEntries(
    Object.entries(reader).map(([k, fn]) => [
      k,
      (...args: unknown[]) => guard(() => (fn as (...a: unknown[]) => unknown)(...args)),
    ]),
  ) as unknown as SkillsReader;

  return {
    ...guarded,
    write: (fn) => guard(() => db.transaction(() => fn(writer)).immediate()),
  };
}
