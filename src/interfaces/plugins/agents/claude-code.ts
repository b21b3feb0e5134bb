/**
 * Claude Code: hooks in settings (SessionStart → context bundle; PreCompact, Stop, SessionEnd →
 * save), the MCP server, and the skills. Global: `${CLAUDE_CONFIG_DIR:-~/.claude}/settings.json`,
 * `~/.claude.json` (mcpServers), `~/.claude/skills/`. Workspace: `.claude/settings.local.json`
 * (the hooks hold this machine's absolute paths; Claude Code keeps that file out of git),
 * `.mcp.json`, `.claude/skills/`.
 */
import { dirname, join } from 'node:path';
import { hookCommand, mcpEntry } from '../command.js';
import { type HookSpec, putEventHooks, removeEventHooks } from '../hooks-json.js';
import { deletePath, editJson, setPath } from '../json-file.js';
import type { FileEdit } from '../plan.js';
import { type AgentPlan, type Mode, skillEdits, type Target } from './shared.js';

export const CLAUDE_EVENTS = ['SessionStart', 'PreCompact', 'Stop', 'SessionEnd'];

export function claudePaths(t: Target) {
  const config = t.env.CLAUDE_CONFIG_DIR || join(t.home, '.claude');
  return t.scope === 'global'
    ? {
        settings: join(config, 'settings.json'),
        mcp: t.env.CLAUDE_CONFIG_DIR ? join(config, '.claude.json') : join(t.home, '.claude.json'),
        skills: join(config, 'skills'),
      }
    : {
        settings: join(t.workspace, '.claude', 'settings.local.json'),
        mcp: join(t.workspace, '.mcp.json'),
        skills: join(t.workspace, '.claude', 'skills'),
      };
}

export function claudePlan(t: Target, mode: Mode): AgentPlan {
  const p = claudePaths(t);
  const specs: HookSpec[] = CLAUDE_EVENTS.map((event) => ({
    event,
    handler: { type: 'command', command: hookCommand(t.inv, 'claude-code', event), timeout: 10 },
  }));
  const hooks: FileEdit = {
    path: p.settings,
    what: `hooks ${CLAUDE_EVENTS.join(', ')}`,
    apply: (before) =>
      editJson(before, p.settings, (o) =>
        mode === 'install' ? putEventHooks(o, specs) : removeEventHooks(o),
      ),
  };
  const mcp: FileEdit = {
    path: p.mcp,
    what: 'MCP server tapedeck (stdio)',
    apply: (before) =>
      editJson(before, p.mcp, (o) =>
        mode === 'install'
          ? setPath(o, ['mcpServers', 'tapedeck'], { type: 'stdio', ...mcpEntry(t.inv) })
          : deletePath(o, ['mcpServers', 'tapedeck']),
      ),
  };
  const skills = skillEdits(p.skills, mode, false);
  const retention = retentionEdit(t, mode, hooks);
  return {
    edits: [
      ...(retention?.path === hooks.path ? [retention] : retention ? [hooks, retention] : [hooks]),
      mcp,
      ...skills.edits,
    ],
    dirs: [...skills.dirs, p.skills, dirname(p.settings)],
    notes: mode === 'install' ? ['Start a new Claude Code session (or run /hooks) to load the hooks.'] : [],
  };
}

/**
 * `--retention-days N`: Claude Code's `cleanupPeriodDays` in the user settings (Claude Code reads
 * it there), only when asked for. With a global install that is the hooks' own file, so the one
 * edit does both; with a workspace install it is a second file. Uninstall leaves it alone: it is
 * the user's choice by then.
 */
function retentionEdit(t: Target, mode: Mode, hooks: FileEdit): FileEdit | undefined {
  const days = t.retentionDays;
  if (mode !== 'install' || days === undefined) return undefined;
  const settings = join(t.env.CLAUDE_CONFIG_DIR || join(t.home, '.claude'), 'settings.json');
  const set = (text: string | null) =>
    editJson(text, settings, (o) => setPath(o, ['cleanupPeriodDays'], days));
  if (hooks.path === settings)
    return {
      path: settings,
      what: `${hooks.what}; cleanupPeriodDays ${days}`,
      apply: (before) => set(hooks.apply(before)),
    };
  return { path: settings, what: `cleanupPeriodDays ${days}`, apply: set };
}
