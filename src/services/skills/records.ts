/** The record behind the trust badge: evidence links, test cases, check results and outcomes. */
import { invalidInput, notFound } from '../../core/errors.js';
import { redact } from '../../core/redact.js';
import { evidenceUri, isSkillOutcome, parseEvidenceUri, type SkillOutcome } from '../../core/skill.js';
import type { SkillsCore } from './core.js';
import { checkTestName, cleanNote, MAX_NOTE } from './documents.js';
import type { SpaceScope } from './views.js';

export function createSkillRecords(core: SkillsCore) {
  const { store, resolveSpace, threadStep, memoryExists, iso, mustGet, summary, versionOf, trustNow } = core;
  return {
    /** Attach evidence links (all checked first: nothing is kept when one is wrong). */
    addEvidence(name: string, uris: string[], opts: SpaceScope & { note?: string } = {}) {
      const space = resolveSpace(opts);
      if (uris.length === 0) throw invalidInput('Give at least one evidence link');
      const refs = uris.map(parseEvidenceUri);
      for (const ref of refs) {
        if (ref.kind === 'memory') {
          if (memoryExists && !memoryExists(ref.id)) throw notFound(`No memory ${ref.id}`);
          continue;
        }
        const found = threadStep(ref.thread, ref.step);
        if (found === 'no-thread')
          throw notFound(`No thread "${ref.thread}"; list threads with \`tapedeck threads\``);
        if (found === 'no-step') throw notFound(`Thread ${ref.thread} has no step ${ref.step}`);
      }
      const note = cleanNote(opts.note);
      const r = store.write((w) => {
        const row = mustGet(space, name, w);
        const added: string[] = [];
        const already: string[] = [];
        for (const uri of new Set(refs.map(evidenceUri)))
          (w.addEvidence(row.id, { uri, note, createdAt: iso() }) ? added : already).push(uri);
        return { added, already };
      });
      return { ...summary(mustGet(space, name)), ...r };
    },

    removeEvidence(name: string, uris: string[], opts: SpaceScope = {}) {
      const space = resolveSpace(opts);
      const canonical = uris.map((u) => evidenceUri(parseEvidenceUri(u)));
      const removed = store.write((w) => {
        const row = mustGet(space, name, w);
        return canonical.filter((u) => w.removeEvidence(row.id, u));
      });
      return { ...summary(mustGet(space, name)), removed };
    },

    /** Define (or redefine) a test case: a name and what to check. */
    defineTest(name: string, test: string, check: string, opts: SpaceScope = {}) {
      const space = resolveSpace(opts);
      const t = checkTestName(test);
      if (typeof check !== 'string' || check.trim() === '') throw invalidInput(`Say what test "${t}" checks`);
      if (check.length > MAX_NOTE)
        throw invalidInput(`The check of test "${t}" is over ${MAX_NOTE} characters`);
      const created = store.write((w) => {
        const row = mustGet(space, name, w);
        return w.upsertTest(row.id, { name: t, check: redact(check.trim()).text, createdAt: iso() });
      });
      return { ...summary(mustGet(space, name)), test: t, created };
    },

    /**
     * Record a check result for a test case (created on first use) against a version (current by
     * default). Per test, only the latest result on the current version counts toward the badge.
     */
    recordCheck(
      name: string,
      test: string,
      result: 'passed' | 'failed',
      opts: SpaceScope & { note?: string; version?: number; check?: string } = {},
    ) {
      const space = resolveSpace(opts);
      const t = checkTestName(test);
      if (result !== 'passed' && result !== 'failed')
        throw invalidInput(`A check result is passed or failed, not "${result}"`);
      const note = cleanNote(opts.note);
      const check = opts.check?.trim() ? redact(opts.check.trim()).text : '';
      store.write((w) => {
        const row = mustGet(space, name, w);
        const version = versionOf(row, opts.version);
        w.upsertTest(row.id, { name: t, check, createdAt: iso() });
        w.addCheck(row.id, { test: t, version, result, note, createdAt: iso() });
      });
      const { row, badge, trust } = trustNow(space, name);
      return { name, version: row.version, test: t, result, badge, trust };
    },

    /** Report how using the skill went (against the current version unless `version` is given). */
    recordOutcome(
      name: string,
      outcome: string,
      opts: SpaceScope & { note?: string; version?: number } = {},
    ) {
      const space = resolveSpace(opts);
      if (!isSkillOutcome(outcome))
        throw invalidInput(
          `Unknown outcome "${outcome}"; use completed, completed_with_deviation, failed or abandoned`,
        );
      const note = cleanNote(opts.note);
      store.write((w) => {
        const row = mustGet(space, name, w);
        w.addOutcome(row.id, {
          version: versionOf(row, opts.version),
          outcome: outcome as SkillOutcome,
          note,
          createdAt: iso(),
        });
      });
      const { row, badge, trust } = trustNow(space, name);
      return { name, version: row.version, outcome, badge, trust };
    },
  };
}
