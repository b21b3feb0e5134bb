/**
 * Skills: SKILL.md bundles with versions, stages, evidence, test cases, checks and outcomes, and a
 * trust badge computed from that record whenever a skill is read (never stored, so never stale).
 *
 * Decisions the issue left open (docs/skills.md repeats them for users):
 * - Any change to the SKILL.md text (description or body) is a new version; stage changes are not.
 * - The badge counts the current version's record only: a rewritten skill earns trust again.
 *   Per test case only its latest result counts, so re-running the same passing test is one check.
 * - `completed_with_deviation` is not a success for the badge.
 * - A person's `add`/`import` defaults to stage active; an agent's `propose` creates a draft, and an
 *   improvement of an existing skill waits as a proposal until someone accepts it.
 */
import { createSkillAuthoring } from './authoring.js';
import { createSkillsCore, type SkillsDeps } from './core.js';
import { createSkillReads } from './reads.js';
import { createSkillRecords } from './records.js';
import { createSkillSuggest } from './suggest.js';
import { createSkillTransfer } from './transfer.js';

export type { SkillsDeps } from './core.js';
export type { SkillInput } from './documents.js';

/** The skills use cases every interface calls (`engine.skills`). */
export function createSkillsService(deps: SkillsDeps) {
  const core = createSkillsCore(deps);
  return {
    ...createSkillReads(core),
    ...createSkillAuthoring(core),
    ...createSkillRecords(core),
    ...createSkillTransfer(core),
    ...createSkillSuggest(core),
  };
}

export type SkillsService = ReturnType<typeof createSkillsService>;
