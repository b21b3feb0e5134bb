/**
 * Finds Claude Code transcripts: `${CLAUDE_CONFIG_DIR:-~/.claude}/projects/<encoded cwd>/`
 * holds `<sessionId>.jsonl`, legacy subagent files `agent-*.jsonl`, and per-session folders
 * `<sessionId>/subagents/*.jsonl`. Directory listings only: this runs before every MCP answer.
 */
import { type Dirent, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ParseIssue } from '../../core/types.js';
import type { LocateEnv, TranscriptFile } from '../../ports/source.js';

/** The Claude Code config root for this environment. */
export function claudeConfigDir(env: LocateEnv): string {
  const override = env.env.CLAUDE_CONFIG_DIR?.trim();
  return override ? override : join(env.home, '.claude');
}

/**
 * List a directory; a missing one (or a file where a directory was expected) is simply empty, any
 * other failure (EACCES, EIO…) is reported and skipped.
 */
function list(dir: string, report: (issue: ParseIssue) => void): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') {
      report({ path: dir, message: `cannot read directory: ${code ?? (e as Error).message}` });
    }
    return [];
  }
}

// Symlinks are accepted as either kind without a stat; a wrong guess just lists as empty (ENOTDIR).
const isDirLike = (d: Dirent) => d.isDirectory() || d.isSymbolicLink();
const isFileLike = (d: Dirent) => d.isFile() || d.isSymbolicLink();
const isTranscript = (d: Dirent) => isFileLike(d) && d.name.endsWith('.jsonl');

/** Every Claude Code transcript file under the config root. */
export function locateClaudeCode(env: LocateEnv, report: (issue: ParseIssue) => void): TranscriptFile[] {
  const projects = join(claudeConfigDir(env), 'projects');
  const out: TranscriptFile[] = [];
  for (const project of list(projects, report)) {
    if (!isDirLike(project)) continue;
    const projectDir = join(projects, project.name);
    for (const entry of list(projectDir, report)) {
      if (isTranscript(entry)) {
        out.push({ path: join(projectDir, entry.name), mode: 'lines' });
      } else if (entry.isDirectory()) {
        // Only `<sessionId>/subagents/` holds transcripts; siblings such as `tool-results/` do not.
        // Listing the session folder first avoids a thrown ENOENT for every folder without subagents.
        const sessionDir = join(projectDir, entry.name);
        if (!list(sessionDir, report).some((d) => d.name === 'subagents' && isDirLike(d))) continue;
        const subagents = join(sessionDir, 'subagents');
        for (const sub of list(subagents, report)) {
          if (isTranscript(sub)) out.push({ path: join(subagents, sub.name), mode: 'lines' });
        }
      }
    }
  }
  return out;
}
