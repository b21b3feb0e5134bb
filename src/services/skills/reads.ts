/** Reading skills: one with its record, a version's SKILL.md, lists, finding one for a task, the index. */
import { invalidInput, notFound } from '../../core/errors.js';
import { parseQuery } from '../../core/query.js';
import { renderSkillMd, type SkillStage } from '../../core/skill.js';
import type { SkillField } from '../../ports/skills-store.js';
import type { SkillsCore } from './core.js';
import {
  badgeOf,
  type SkillDetail,
  type SkillHit,
  type SkillIndexEntry,
  type SkillSummary,
  type SpaceScope,
  summaryOf,
  trustView,
} from './views.js';

const ACTIVE_BOOST = 1.5;
const ARCHIVED_DAMPING = 0.6;
const BADGE_BOOST = { Draft: 1, Checked: 1.15, Proven: 1.3 } as const;
const FIELD_WEIGHT: Record<SkillField, number> = { name: 3, description: 2, body: 1 };

export function createSkillReads(core: SkillsCore) {
  const { store, resolveSpace, mustGet, stageOf, versionOf } = core;
  return {
    /** One skill with its body and record; `version` shows an earlier version's text. */
    show(name: string, opts: SpaceScope & { version?: number } = {}): SkillDetail {
      const space = resolveSpace(opts);
      const row = mustGet(space, name);
      const shown = versionOf(row, opts.version);
      const v = shown === row.version ? row : store.version(row.id, shown);
      if (!v) throw notFound(`Skill "${name}" has no version ${shown}`);
      const counts = store.trust([row.id]).get(row.id)!;
      const checks = store.checks(row.id, 1000).filter((c) => c.version === row.version);
      const lastResult = new Map<string, 'passed' | 'failed'>();
      for (const c of checks) if (!lastResult.has(c.test)) lastResult.set(c.test, c.result);
      return {
        ...summaryOf(row, counts),
        shown_version: shown,
        description: v.description,
        body: v.body,
        content: renderSkillMd(v),
        created_at: row.createdAt,
        trust: trustView(counts),
        evidence: store.evidence(row.id).map((e) => ({ uri: e.uri, note: e.note, created_at: e.createdAt })),
        tests: store
          .tests(row.id)
          .map((t) => ({ name: t.name, check: t.check, last_result: lastResult.get(t.name) ?? null })),
        recent_outcomes: store
          .outcomes(row.id, 10)
          .map((o) => ({ version: o.version, outcome: o.outcome, note: o.note, created_at: o.createdAt })),
        versions: store
          .versions(row.id)
          .map((x) => ({ version: x.version, note: x.note, created_at: x.createdAt })),
        pending_proposals: store
          .proposals(row.id, 'pending')
          .map((p) => ({ id: p.id, base_version: p.baseVersion, note: p.note, created_at: p.createdAt })),
      };
    },

    /** The SKILL.md text of a version (the current one by default), exactly as stored. */
    render(name: string, opts: SpaceScope & { version?: number } = {}): string {
      const space = resolveSpace(opts);
      const row = mustGet(space, name);
      const shown = versionOf(row, opts.version);
      return renderSkillMd(shown === row.version ? row : store.version(row.id, shown)!);
    },

    /** Skills of a space by name; archived ones only with `includeArchived` or `stage: 'archived'`. */
    list(opts: SpaceScope & { stage?: string; includeArchived?: boolean } = {}): SkillSummary[] {
      const space = resolveSpace(opts);
      const stages: SkillStage[] = opts.stage
        ? [stageOf(opts.stage, 'active')]
        : opts.includeArchived
          ? ['draft', 'active', 'archived']
          : ['draft', 'active'];
      const rows = store.list({ space, stages });
      const trust = store.trust(rows.map((r) => r.id));
      return rows.map((r) => summaryOf(r, trust.get(r.id)));
    },

    /**
     * Skills for a task, best first: text relevance (name, then description, then body) lifted for
     * active and trusted skills. Archived skills only with `includeArchived`.
     */
    find(task: string, opts: SpaceScope & { limit?: number; includeArchived?: boolean } = {}) {
      if (typeof task !== 'string' || task.trim() === '')
        throw invalidInput('Describe the task to find skills for');
      if (task.length > 2000) throw invalidInput('The task description is over 2,000 characters');
      const limit = opts.limit ?? 5;
      if (!Number.isInteger(limit) || limit < 1 || limit > 50)
        throw invalidInput('limit must be between 1 and 50');
      const space = resolveSpace(opts);
      const stages: SkillStage[] = opts.includeArchived
        ? ['draft', 'active', 'archived']
        : ['draft', 'active'];
      const found = store.search(parseQuery(task), { space, stages }, Math.max(100, limit * 10));
      const trust = store.trust(found.candidates.map((c) => c.row.id));
      const hits: (SkillHit & { bm25: number })[] = found.candidates.map(({ row, bm25, matched }) => {
        const badge = badgeOf(row, trust.get(row.id));
        const stageBoost =
          row.stage === 'active' ? ACTIVE_BOOST : row.stage === 'archived' ? ARCHIVED_DAMPING : 1;
        const score = matchScore(matched, found.termDocs, found.total) * stageBoost * BADGE_BOOST[badge];
        return {
          name: row.name,
          description: row.description,
          badge,
          stage: row.stage,
          version: row.version,
          score,
          bm25,
        };
      });
      hits.sort((a, b) => b.score - a.score || a.name.localeCompare(b.name));
      return {
        query: task,
        hits: hits.slice(0, limit).map((h) => ({
          name: h.name,
          description: h.description,
          badge: h.badge,
          stage: h.stage,
          version: h.version,
          score: Math.round(h.score * 1000) / 1000,
        })),
      };
    },

    /** Active skills, one line each, most trusted first: the skills index of the context bundle. */
    index(opts: SpaceScope = {}): SkillIndexEntry[] {
      const space = resolveSpace(opts);
      const rows = store.list({ space, stages: ['active'] });
      const trust = store.trust(rows.map((r) => r.id));
      const order = { Proven: 0, Checked: 1, Draft: 2 } as const;
      return rows
        .map((r) => ({
          name: r.name,
          description: r.description,
          badge: badgeOf(r, trust.get(r.id)),
          stage: r.stage,
        }))
        .sort((a, b) => order[a.badge] - order[b.badge] || a.name.localeCompare(b.name));
    },
  };
}

/**
 * Relevance of one skill: for each query term it contains, the term's rarity (a smoothed IDF that
 * stays positive in a collection of five skills, where bm25's goes to zero) times where it was
 * found — the name counts most, then the description, then the body.
 */
function matchScore(matched: Record<SkillField, number[]>, termDocs: number[], total: number): number {
  let score = 0;
  termDocs.forEach((df, i) => {
    const where =
      FIELD_WEIGHT.name * +matched.name.includes(i) +
      FIELD_WEIGHT.description * +matched.description.includes(i) +
      FIELD_WEIGHT.body * +matched.body.includes(i);
    if (where > 0) score += Math.log(1 + (total - df + 0.5) / (df + 0.5)) * where;
  });
  return score;
}
