/** Skills that fit a workspace (and a task), each with why; and a skill's body for this turn only. */
import { resolve } from 'node:path';
import { invalidInput } from '../../core/errors.js';
import type { SkillBadge } from '../../core/skill.js';
import { type Suggestion, suggestSkills } from '../../core/skill-suggest.js';
import type { SkillsCore } from './core.js';
import { badgeOf, type SpaceScope } from './views.js';
import { scanWorkspace } from './workspace.js';

export interface SuggestResult {
  workspace: string;
  /** What the workspace showed, as read: "Dockerfile", "package.json depends on prisma", … */
  signals: string[];
  suggestions: (Suggestion & { description: string; badge: SkillBadge; stage: string; version: number })[];
}

export function createSkillSuggest(core: SkillsCore) {
  const { store, resolveSpace, mustGet } = core;
  return {
    /**
     * Skills ranked for the workspace in `dir` and the `task` text: build files, CI, languages
     * and recent commits matched against each draft or active skill, with the reasons.
     */
    suggest(dir: string, opts: SpaceScope & { task?: string; limit?: number } = {}): SuggestResult {
      if (typeof dir !== 'string' || dir.trim() === '') throw invalidInput('Name the workspace folder');
      if (opts.task !== undefined && opts.task.length > 2000)
        throw invalidInput('The task description is over 2,000 characters');
      const limit = opts.limit ?? 5;
      if (!Number.isInteger(limit) || limit < 1 || limit > 50)
        throw invalidInput('limit must be between 1 and 50');
      const workspace = resolve(dir);
      const space = resolveSpace(opts);
      const rows = store.list({ space, stages: ['draft', 'active'] });
      const trust = store.trust(rows.map((r) => r.id));
      const signals = scanWorkspace(workspace);
      const byName = new Map(rows.map((r) => [r.name, r]));
      const ranked = suggestSkills(rows, signals, opts.task ?? '').slice(0, limit);
      return {
        workspace,
        signals: signals.map((s) => s.source),
        suggestions: ranked.map((s) => {
          const row = byName.get(s.name)!;
          return {
            ...s,
            description: row.description,
            badge: badgeOf(row, trust.get(row.id)),
            stage: row.stage,
            version: row.version,
          };
        }),
      };
    },

    /**
     * A skill for this turn only: its body as one clean block headed by its name, version and
     * trust badge, to put in the conversation. Nothing is written.
     */
    loadBlock(name: string, opts: SpaceScope = {}): string {
      const row = mustGet(resolveSpace(opts), name);
      const badge = badgeOf(row, store.trust([row.id]).get(row.id));
      return `<skill name="${row.name}" version="${row.version}" badge="${badge}">\n${row.description}\n\n${row.body.trim()}\n</skill>\n`;
    },
  };
}
