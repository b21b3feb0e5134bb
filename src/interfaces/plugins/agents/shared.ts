/** Building blocks of the per-agent installers: owned files, skills, instruction sections. */
import { join, relative, sep } from 'node:path';
import { putSection, removeSection, renderSection, type SectionMarkers } from '../../../core/text-section.js';
import type { AgentId } from '../../../core/types.js';
import { findGitRepo } from '../../../services/skills/files.js';
import type { Invocation } from '../command.js';
import { rulesBody, skillFile, skillsFor } from '../content.js';
import type { FileEdit } from '../plan.js';

export type Scope = 'global' | 'workspace';
export type Mode = 'install' | 'uninstall';

export interface Target {
  agent: AgentId;
  scope: Scope;
  /** Absolute workspace folder (scope workspace). */
  workspace: string;
  /** The user's home. */
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  inv: Invocation;
  /** Claude Code: the `cleanupPeriodDays` asked for with --retention-days (never set otherwise). */
  retentionDays?: number;
}

export interface AgentPlan {
  edits: FileEdit[];
  /** Folders Tapedeck owns, removed on uninstall when empty (deepest first). */
  dirs: string[];
  notes: string[];
}

/** A file Tapedeck owns whole: written on install, removed on uninstall. */
export function owned(path: string, content: string, mode: Mode, what: string): FileEdit {
  return { path, what, apply: (before) => (mode === 'install' ? content : before === null ? null : null) };
}

/** The skills, one folder each under `dir`. */
export function skillEdits(
  dir: string,
  mode: Mode,
  slash: boolean,
  host: AgentId,
): { edits: FileEdit[]; dirs: string[] } {
  const skills = skillsFor(host);
  return {
    edits: skills.map((s) =>
      owned(join(dir, s.name, 'SKILL.md'), skillFile(s, slash), mode, `skill ${s.name}`),
    ),
    dirs: skills.map((s) => join(dir, s.name)),
  };
}

export const MARKERS: SectionMarkers = {
  begin: '<!-- tapedeck:begin (written by `tapedeck install`; `tapedeck uninstall` removes this section) -->',
  end: '<!-- tapedeck:end -->',
};

/** Tapedeck's section of an instructions file (AGENTS.md, GEMINI.md). */
export function sectionEdit(path: string, mode: Mode, host: AgentId): FileEdit {
  const section = renderSection(rulesBody(host), MARKERS);
  return {
    path,
    what: 'Tapedeck section (between tapedeck:begin and tapedeck:end)',
    apply(before) {
      const text = before ?? '';
      const out = mode === 'install' ? putSection(text, section, MARKERS) : removeSection(text, MARKERS);
      if (out === text) return before;
      return out === '' ? null : out;
    },
  };
}

/**
 * Workspace files that hold this machine's absolute paths (node, tapedeck, the data folder), kept
 * out of what a team commits: listed in the repository's `.git/info/exclude` — never committed
 * itself — in a section of this agent's own, removed again on uninstall. No repository: no edit,
 * and a note says so.
 */
export function gitExcludeEdit(
  t: Target,
  mode: Mode,
  files: string[],
): { edits: FileEdit[]; notes: string[] } {
  if (t.scope !== 'workspace' || files.length === 0) return { edits: [], notes: [] };
  const repo = findGitRepo(t.workspace);
  const rel = (f: string) =>
    relative(repo?.root ?? t.workspace, f)
      .split(sep)
      .join('/');
  if (!repo)
    return {
      edits: [],
      notes:
        mode === 'install'
          ? [
              `Not a git repository: keep ${files.map(rel).join(', ')} out of version control (they hold this machine's paths).`,
            ]
          : [],
    };
  const markers: SectionMarkers = {
    begin: `# tapedeck:begin ${t.agent} (this machine's paths; \`tapedeck uninstall ${t.agent}\` removes this section)`,
    end: `# tapedeck:end ${t.agent}`,
  };
  const section = renderSection(files.map((f) => `/${rel(f)}`).join('\n'), markers);
  const path = join(repo.gitDir, 'info', 'exclude');
  return {
    edits: [
      {
        path,
        what: `keep ${files.map(rel).join(', ')} out of git`,
        apply(before) {
          const text = before ?? '';
          const out = mode === 'install' ? putSection(text, section, markers) : removeSection(text, markers);
          if (out === text) return before;
          return out === '' ? null : out;
        },
      },
    ],
    notes:
      mode === 'install'
        ? [
            `Kept out of git through .git/info/exclude (they hold this machine's paths): ${files.map(rel).join(', ')}.`,
          ]
        : [],
  };
}
