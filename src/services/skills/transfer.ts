/** Skills to and from disk: install into a workspace, import and export SKILL.md folders. */
import { invalidInput, TapedeckError } from '../../core/errors.js';
import { renderSkillMd, type SkillDocument, type SkillStage } from '../../core/skill.js';
import type { SkillsCore } from './core.js';
import { docFromText } from './documents.js';
import { type InstallResult, installSkillFile, readSkillFolders, writeSkillFolder } from './files.js';
import type { SpaceScope } from './views.js';

export function createSkillTransfer(core: SkillsCore) {
  const { store, resolveSpace, mustGet, addVersion, createSkill, stageOf, versionOf } = core;
  return {
    /**
     * Write a skill to `<workspace>/.agents/skills/<name>/SKILL.md` (workspace defaults to cwd); with
     * `excludeFromGit`, also list it in the repository's `.git/info/exclude` (once).
     */
    install(
      name: string,
      opts: SpaceScope & {
        workspace?: string;
        excludeFromGit?: boolean;
        version?: number;
        force?: boolean;
      } = {},
    ): InstallResult & { name: string; version: number } {
      const space = resolveSpace(opts);
      const row = mustGet(space, name);
      const version = versionOf(row, opts.version);
      const versions = store.versions(row.id);
      const known = versions.map(renderSkillMd);
      const content = renderSkillMd(versions.find((v) => v.version === version)!);
      const r = installSkillFile({
        workspace: opts.workspace ?? opts.cwd ?? process.cwd(),
        name,
        content,
        known,
        force: opts.force,
        excludeFromGit: opts.excludeFromGit,
      });
      return { name, version, ...r };
    },

    /**
     * Import `<dir>/*\/SKILL.md` (or one skill folder). Every file is read and validated first; if
     * any is wrong nothing is imported and the error names each bad file. An existing skill with
     * different text gets a new version; identical text is left alone.
     */
    importDir(dir: string, opts: SpaceScope & { stage?: string } = {}) {
      const space = resolveSpace(opts);
      const stage = stageOf(opts.stage, 'active');
      const { files, skipped } = readSkillFolders(dir);
      const problems: { file: string; message: string }[] = [];
      const docs: (SkillDocument & { file: string })[] = [];
      for (const f of files) {
        try {
          const doc = docFromText(f.text, f.file);
          if (doc.name !== f.folder)
            throw invalidInput(`${f.file}: the name "${doc.name}" does not match its folder "${f.folder}"`);
          docs.push({ ...doc, file: f.file });
        } catch (e) {
          if (e instanceof TapedeckError && e.code === 'INVALID_INPUT')
            problems.push({ file: f.file, message: e.message });
          else throw e;
        }
      }
      if (problems.length)
        throw invalidInput(
          `Nothing imported: ${problems.length} of ${files.length} SKILL.md files are invalid. ${problems.map((p) => p.message).join('; ')}`,
          { problems },
        );
      const results = store.write((w) =>
        docs.map((doc) => {
          const row = w.get(space, doc.name);
          if (!row) {
            createSkill(w, space, doc, stage, `imported from ${doc.file}`);
            return { name: doc.name, status: 'created' as const, version: 1 };
          }
          if (row.head === doc.head && row.body === doc.body)
            return { name: doc.name, status: 'unchanged' as const, version: row.version };
          const version = addVersion(w, row, doc, `imported from ${doc.file}`);
          return { name: doc.name, status: 'updated' as const, version };
        }),
      );
      return { space, skills: results, skipped };
    },

    /** Write one folder per skill (`<dir>/<name>/SKILL.md`), byte for byte as stored. */
    exportDir(dir: string, opts: SpaceScope & { stage?: string } = {}) {
      const space = resolveSpace(opts);
      const stages: SkillStage[] = opts.stage
        ? [stageOf(opts.stage, 'active')]
        : ['draft', 'active', 'archived'];
      const rows = store.list({ space, stages });
      const files = rows.map((r) => ({
        name: r.name,
        version: r.version,
        path: writeSkillFolder(dir, r.name, renderSkillMd(r)),
      }));
      return { space, files };
    },
  };
}
