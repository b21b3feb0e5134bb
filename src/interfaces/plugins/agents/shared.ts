/** Building blocks of the per-agent installers: owned files, skills, instruction sections. */
import { join } from 'node:path';
import { putSection, removeSection, renderSection, type SectionMarkers } from '../../../core/text-section.js';
import type { AgentId } from '../../../core/types.js';
import type { Invocation } from '../command.js';
import { RULES_BODY, SKILLS, skillFile } from '../content.js';
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
export function skillEdits(dir: string, mode: Mode, slash: boolean): { edits: FileEdit[]; dirs: string[] } {
  return {
    edits: SKILLS.map((s) =>
      owned(join(dir, s.name, 'SKILL.md'), skillFile(s, slash), mode, `skill ${s.name}`),
    ),
    dirs: SKILLS.map((s) => join(dir, s.name)),
  };
}

export const MARKERS: SectionMarkers = {
  begin: '<!-- tapedeck:begin (written by `tapedeck install`; `tapedeck uninstall` removes this section) -->',
  end: '<!-- tapedeck:end -->',
};

/** Tapedeck's section of an instructions file (AGENTS.md, GEMINI.md). */
export function sectionEdit(path: string, mode: Mode): FileEdit {
  const section = renderSection(RULES_BODY, MARKERS);
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
