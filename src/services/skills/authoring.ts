/** Writing skills: add, update, stage, and the propose → accept / reject flow. */
import { invalidInput, TapedeckError } from '../../core/errors.js';
import { parseSkillMd, renderSkillMd, type SkillStage } from '../../core/skill.js';
import type { SkillsCore } from './core.js';
import { applyChange, cleanNote, docFromText, type SkillInput } from './documents.js';
import type { SpaceScope } from './views.js';

export function createSkillAuthoring(core: SkillsCore) {
  const {
    store,
    resolveSpace,
    iso,
    mustGet,
    summary,
    addVersion,
    createSkill,
    docOf,
    stageOf,
    findProposal,
  } = core;
  return {
    /** Create a skill (from a whole SKILL.md or from fields). CONFLICT when the name is taken. */
    add(input: SkillInput & { stage?: string }) {
      const space = resolveSpace(input);
      const doc = docOf(input);
      const stage = stageOf(input.stage, 'active');
      const note = cleanNote(input.note);
      store.write((w) => {
        if (w.get(space, doc.name))
          throw new TapedeckError(
            'CONFLICT',
            `Skill "${doc.name}" already exists in space ${space}; change it with \`tapedeck skills update\``,
          );
        createSkill(w, space, doc, stage, note);
      });
      return { ...summary(mustGet(space, doc.name)), created: true, redactions: doc.redactions };
    },

    /** Change a skill's SKILL.md, description or body: a new version, unless nothing changed. */
    update(name: string, input: SkillInput) {
      const space = resolveSpace(input);
      if (input.content === undefined && input.description === undefined && input.body === undefined)
        throw invalidInput('Nothing to update: give a new SKILL.md, description or body');
      const note = cleanNote(input.note);
      const r = store.write((w) => {
        const row = mustGet(space, name, w);
        const change = applyChange(row, input);
        if (!change) return { changed: false, redactions: 0 };
        addVersion(w, row, change.doc, note);
        return { changed: true, redactions: change.redactions };
      });
      return { ...summary(mustGet(space, name)), ...r };
    },

    setStage(name: string, stage: string, opts: SpaceScope = {}) {
      const space = resolveSpace(opts);
      const next = stageOf(stage, 'active');
      const previous = store.write((w) => {
        const row = mustGet(space, name, w);
        if (row.stage !== next) w.setStage(row.id, next, iso());
        return row.stage;
      });
      return { ...summary(mustGet(space, name)), previous_stage: previous };
    },

    /**
     * An agent's proposal: a new skill becomes a draft at once; a change to an existing skill is
     * kept as a pending proposal for a person to accept (or reject).
     */
    propose(input: SkillInput) {
      const space = resolveSpace(input);
      const note = cleanNote(input.note);
      const name =
        input.content !== undefined
          ? docFromText(input.content, input.source ?? 'SKILL.md').name
          : input.name;
      if (!name) throw invalidInput('Give the skill a name (kebab-case) or a whole SKILL.md');
      return store.write((w) => {
        const row = w.get(space, name);
        if (!row) {
          const doc = docOf(input);
          createSkill(w, space, doc, 'draft', note);
          return {
            status: 'created' as const,
            name,
            version: 1,
            stage: 'draft' as SkillStage,
            proposal: null,
          };
        }
        const change = applyChange(row, input);
        if (!change) throw invalidInput(`The proposal is identical to version ${row.version} of "${name}"`);
        const id = crypto.randomUUID();
        w.insertProposal({
          id,
          skillId: row.id,
          baseVersion: row.version,
          description: change.doc.description,
          head: change.doc.head,
          body: change.doc.body,
          note,
          status: 'pending',
          createdAt: iso(),
          decidedAt: null,
        });
        return { status: 'proposed' as const, name, version: row.version, stage: row.stage, proposal: id };
      });
    },

    /** Pending (or all) proposals of a skill, with their text. */
    proposals(name: string, opts: SpaceScope & { all?: boolean } = {}) {
      const row = mustGet(resolveSpace(opts), name);
      return store.proposals(row.id, opts.all ? undefined : 'pending').map((p) => ({
        id: p.id,
        status: p.status,
        base_version: p.baseVersion,
        note: p.note,
        description: p.description,
        content: renderSkillMd(p),
        created_at: p.createdAt,
        decided_at: p.decidedAt,
      }));
    },

    /** Apply a pending proposal as the next version. CONFLICT if the skill moved on, unless `force`. */
    accept(name: string, proposalId: string, opts: SpaceScope & { force?: boolean } = {}) {
      const space = resolveSpace(opts);
      const p = findProposal(mustGet(space, name), proposalId);
      const version = store.write((w) => {
        const row = mustGet(space, name, w);
        const current = w.proposals(row.id).find((x) => x.id === p.id)!;
        if (current.status !== 'pending')
          throw new TapedeckError('CONFLICT', `Proposal ${p.id} was already ${current.status}`);
        if (current.baseVersion !== row.version && !opts.force)
          throw new TapedeckError(
            'CONFLICT',
            `Proposal ${p.id} was written against version ${current.baseVersion}; "${name}" is now at version ${row.version}. Review it, then accept with --force`,
          );
        const doc = parseSkillMd(current.head + current.body, `proposal ${p.id}`);
        const v = addVersion(
          w,
          row,
          doc,
          `accepted proposal ${p.id}${current.note ? `: ${current.note}` : ''}`,
        );
        w.decideProposal(p.id, 'accepted', iso());
        return v;
      });
      return { ...summary(mustGet(space, name)), proposal: p.id, accepted_version: version };
    },

    reject(name: string, proposalId: string, opts: SpaceScope = {}) {
      const space = resolveSpace(opts);
      const p = findProposal(mustGet(space, name), proposalId);
      if (p.status !== 'pending')
        throw new TapedeckError('CONFLICT', `Proposal ${p.id} was already ${p.status}`);
      store.write((w) => w.decideProposal(p.id, 'rejected', iso()));
      return { name, proposal: p.id, status: 'rejected' as const };
    },
  };
}
