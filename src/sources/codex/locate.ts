/**
 * Finds Codex rollouts: `${CODEX_HOME:-~/.codex}/sessions/YYYY/MM/DD/rollout-*.jsonl` (line files)
 * and legacy `rollout-*.json` documents, which the TypeScript CLI wrote straight into `sessions/`
 * (also accepted inside the date folders). Directory listings only: this runs before every MCP answer.
 */
import type { Dirent } from 'node:fs';
import { join } from 'node:path';
import type { ParseIssue } from '../../core/types.js';
import type { LocateEnv, TranscriptFile } from '../../ports/source.js';
import { isDirLike, isFileLike, listDir } from '../list-dir.js';

/** The Codex home for this environment. */
export function codexHome(env: LocateEnv): string {
  const override = env.env.CODEX_HOME?.trim();
  return override ? override : join(env.home, '.codex');
}

function rollout(dir: string, d: Dirent): TranscriptFile | undefined {
  if (!isFileLike(d) || !d.name.startsWith('rollout-')) return undefined;
  if (d.name.endsWith('.jsonl')) return { path: join(dir, d.name), mode: 'lines' };
  if (d.name.endsWith('.json')) return { path: join(dir, d.name), mode: 'document' };
  return undefined;
}

/** Subfolders whose name matches a date part (`2025`, `09`, `14`). */
function dateDirs(dir: string, entries: Dirent[], pattern: RegExp): string[] {
  return entries.filter((d) => isDirLike(d) && pattern.test(d.name)).map((d) => join(dir, d.name));
}

/** Every Codex rollout under the Codex home. */
export function locateCodex(env: LocateEnv, report: (issue: ParseIssue) => void): TranscriptFile[] {
  const sessions = join(codexHome(env), 'sessions');
  const out: TranscriptFile[] = [];
  const collect = (dir: string, entries: Dirent[]) => {
    for (const d of entries) {
      const f = rollout(dir, d);
      if (f) out.push(f);
    }
  };
  const top = listDir(sessions, report);
  collect(sessions, top);
  for (const year of dateDirs(sessions, top, /^\d{4}$/)) {
    const months = listDir(year, report);
    for (const month of dateDirs(year, months, /^\d{2}$/)) {
      const days = listDir(month, report);
      for (const day of dateDirs(month, days, /^\d{2}$/)) collect(day, listDir(day, report));
    }
  }
  return out;
}
