/**
 * What every group of skill use cases shares: the store, the space resolver, the clock, and the
 * small steps they are built from (look a skill up, write a version, resolve a proposal id).
 */
import { invalidInput, notFound } from '../../core/errors.js';
import { isSkillStage, type SkillDocument, type SkillStage, skillNameProblem } from '../../core/skill.js';
import type { SkillProposalRow, SkillRow, SkillsStore, SkillsWriter } from '../../ports/skills-store.js';
import { docFromFields, docFromText, type SkillInput } from './documents.js';
import { badgeOf, type SkillSummary, type SpaceScope, summaryOf, trustView } from './views.js';

export interface SkillsDeps {
  store: SkillsStore;
  /** The space a call works in (explicit > env > per-project mapping > default); validates names. */
  resolveSpace: (scope: SpaceScope) => string;
  /** Whether a thread and one of its steps exist (evidence links are checked before they are kept). */
  threadStep: (thread: string, step: number) => 'ok' | 'no-thread' | 'no-step';
  /** Whether a memory exists; when absent, memory links are only checked for shape. */
  memoryExists?: (id: string) => boolean;
  now?: () => number;
}

export function createSkillsCore(deps: SkillsDeps) {
  const { store, resolveSpace, threadStep, memoryExists, now = Date.now } = deps;
  const iso = () => new Date(now()).toISOString();

  function mustGet(space: string, name: string, s: Pick<SkillsStore, 'get'> = store): SkillRow {
    const row = s.get(space, name);
    if (!row) {
      const problem = skillNameProblem(name);
      throw problem
        ? invalidInput(`Invalid skill name: ${problem}`)
        : notFound(`No skill "${name}" in space ${space}; list them with \`tapedeck skills list\``);
    }
    return row;
  }

  function summary(row: SkillRow): SkillSummary {
    return summaryOf(row, store.trust([row.id]).get(row.id));
  }

  function addVersion(w: SkillsWriter, row: SkillRow, doc: SkillDocument, note: string | null): number {
    const version = row.version + 1;
    const at = iso();
    w.updateContent(row.id, {
      description: doc.description,
      head: doc.head,
      body: doc.body,
      version,
      updatedAt: at,
    });
    w.insertVersion(row.id, {
      version,
      description: doc.description,
      head: doc.head,
      body: doc.body,
      note,
      createdAt: at,
    });
    return version;
  }

  function createSkill(
    w: SkillsWriter,
    space: string,
    doc: SkillDocument,
    stage: SkillStage,
    note: string | null,
  ): void {
    const at = iso();
    const id = w.insertSkill({
      space,
      name: doc.name,
      description: doc.description,
      head: doc.head,
      body: doc.body,
      version: 1,
      stage,
      createdAt: at,
      updatedAt: at,
    });
    w.insertVersion(id, {
      version: 1,
      description: doc.description,
      head: doc.head,
      body: doc.body,
      note,
      createdAt: at,
    });
  }

  function docOf(input: SkillInput): SkillDocument & { redactions: number } {
    if (input.content !== undefined) return docFromText(input.content, input.source ?? 'SKILL.md');
    if (!input.name) throw invalidInput('Give the skill a name (kebab-case) or a whole SKILL.md');
    if (!input.description)
      throw invalidInput(`The skill "${input.name}" needs a description: one line saying when to use it`);
    if (input.body === undefined)
      throw invalidInput(`The skill "${input.name}" needs a body (its instructions)`);
    return docFromFields(input.name, input.description, input.body);
  }

  function stageOf(stage: string | undefined, fallback: SkillStage): SkillStage {
    if (stage === undefined) return fallback;
    if (!isSkillStage(stage)) throw invalidInput(`Unknown stage "${stage}"; use draft, active or archived`);
    return stage;
  }

  function versionOf(row: SkillRow, version: number | undefined): number {
    if (version === undefined) return row.version;
    if (!Number.isInteger(version) || version < 1 || version > row.version)
      throw notFound(`Skill "${row.name}" has versions 1 to ${row.version}, not ${version}`);
    return version;
  }

  function findProposal(row: SkillRow, id: string): SkillProposalRow {
    const key = id.trim().toLowerCase();
    if (key.length < 4) throw invalidInput('Give the proposal id (at least its first 4 characters)');
    const matches = store.proposals(row.id).filter((p) => p.id.toLowerCase().startsWith(key));
    if (matches.length === 0) throw notFound(`Skill "${row.name}" has no proposal ${id}`);
    if (matches.length > 1)
      throw invalidInput(`"${id}" matches ${matches.length} proposals; give more of the id`);
    return matches[0];
  }

  /** The badge and trust counts of a skill as it is now. */
  function trustNow(space: string, name: string) {
    const row = mustGet(space, name);
    const counts = store.trust([row.id]).get(row.id)!;
    return { row, badge: badgeOf(row, counts), trust: trustView(counts) };
  }

  return {
    store,
    resolveSpace,
    threadStep,
    memoryExists,
    iso,
    mustGet,
    summary,
    addVersion,
    createSkill,
    docOf,
    stageOf,
    versionOf,
    findProposal,
    trustNow,
  };
}

export type SkillsCore = ReturnType<typeof createSkillsCore>;
