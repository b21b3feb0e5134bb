/**
 * Finds Claude Code transcripts: `${CLAUDE_CONFIG_DIR:-~/.claude}/projects/<encoded cwd>/`
 * holds `<sessionId>.jsonl`, legacy subagent files `agent-*.jsonl`, and per-session folders
 * `<sessionId>/subagents/*.jsonl`. Directory listings only: this runs before every MCP answer.
 */
import type { Dirent } from 'node:fs';
import { join } from 'node:path';
import type { ParseIssue } from '../../core/types.js';
import type { LocateEnv, TranscriptFile } from '../../ports/source.js';
import { isDirLike, isFileLike, listDir } from '../list-dir.js';

/** The Claude Code config root for this environment. */
export function claudeConfigDir(env: LocateEnv): string {
  const override = env.env.CLAUDE_CONFIG_DIR?.trim();
  return override ? override : join(env.home, '.claude');
}

const isTranscript = (d: Dirent) => isFileLike(d) && d.name.endsWith('.jsonl');

/** Every Claude Code transcript file under the config root. */
export function locateClaudeCode(env: LocateEnv, report: (issue: ParseIssue) => void): TranscriptFile[] {
  const projects = join(claudeConfigDir(env), 'projects');
  const out: TranscriptFile[] = [];
  for (const project of listDir(projects, report)) {
    if (!isDirLike(project)) continue;
    const projectDir = join(projects, project.name);
    for (const entry of listDir(projectDir, report)) {
      if (isTranscript(entry)) {
        out.push({ path: join(projectDir, entry.name), mode: 'lines' });
      } else if (entry.isDirectory()) {
        // Only `<sessionId>/subagents/` holds transcripts; siblings such as `tool-results/` do not.
        // Listing the session folder first avoids a thrown ENOENT for every folder without subagents.
        const sessionDir = join(projectDir, entry.name);
        if (!listDir(sessionDir, report).some((d) => d.name === 'subagents' && isDirLike(d))) continue;
        const subagents = join(sessionDir, 'subagents');
        for (const sub of listDir(subagents, report)) {
          if (isTranscript(sub)) out.push({ path: join(subagents, sub.name), mode: 'lines' });
        }
      }
    }
  }
  return out;
}
