/**
 * Refreshing the skills installed in a workspace (`<workspace>/.agents/skills/<name>/SKILL.md`)
 * from the store — or the team server in client mode, since only service reads are used (show,
 * render) and the files are written here. A file Tapedeck wrote (any stored version) is brought to
 * the current version; a file with local edits is left alone; a skill the store does not have is
 * skipped. The hook runs this in a detached process at session start, so no session waits for it.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isTapedeckError } from '../core/errors.js';
import { installSkillFile } from '../services/skills/files.js';
import type { Engine } from './engine.js';

export interface SkillSyncEntry {
  name: string;
  status: 'created' | 'updated' | 'unchanged' | 'local-changes' | 'not-in-store' | 'failed';
  version?: number;
  error?: string;
}

/** The skill folders installed in a workspace (those holding a SKILL.md). */
export function installedSkills(workspace: string): string[] {
  const dir = join(workspace, '.agents', 'skills');
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && existsSync(join(dir, e.name, 'SKILL.md')))
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/** Bring every installed skill of the workspace up to the store's current version. */
export function syncWorkspaceSkills(engine: Engine, dir: string): SkillSyncEntry[] {
  const workspace = resolve(dir);
  const scope = { cwd: workspace };
  return installedSkills(workspace).map((name): SkillSyncEntry => {
    try {
      const detail = engine.skills.show(name, scope);
      const known = detail.versions.map((v) => engine.skills.render(name, { ...scope, version: v.version }));
      const r = installSkillFile({ workspace, name, content: detail.content, known });
      return { name, status: r.status, version: detail.version };
    } catch (e) {
      if (isTapedeckError(e) && e.code === 'NOT_FOUND') return { name, status: 'not-in-store' };
      if (isTapedeckError(e) && e.code === 'CONFLICT') return { name, status: 'local-changes' };
      return { name, status: 'failed', error: (e as Error).message };
    }
  });
}
