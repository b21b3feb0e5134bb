/**
 * Claude Code: hooks in settings (SessionStart → context bundle; PreCompact, Stop, SessionEnd →
 * save), the MCP server, and the skills. Global: `${CLAUDE_CONFIG_DIR:-~/.claude}/settings.json`,
 * `~/.claude.json` (mcpServers), `~/.claude/skills/`. Workspace: the local variants, because the
 * hooks and the MCP entry hold this machine's absolute paths — hooks in
 * `.claude/settings.local.json` (also listed in `.git/info/exclude`), the MCP server in
 * `~/.claude.json` under `projects.<workspace>` (Claude Code's "local" scope, what `claude mcp add`
 * writes), never the team's `.mcp.json`; skills (no paths in them) in `.claude/skills/`.
 */
import { dirname, join } from 'node:path';
import { hookCommand, mcpEntry } from '../command.js';
import { type HookSpec, putEventHooks, removeEventHooks } from '../hooks-json.js';
import { deletePath, editJson, setPath } from '../json-file.js';
import type { FileEdit } from '../plan.js';
import { type AgentPlan, gitExcludeEdit, type Mode, skillEdits, type Target } from './shared.js';

export const CLAUDE_EVENTS = ['SessionStart', 'PreCompact', 'Stop', 'SessionEnd'];

export function claudePaths(t: Target) {
  const config = t.env.CLAUDE_CONFIG_DIR || join(t.home, '.claude');
  const mcp = t.env.CLAUDE_CONFIG_DIR ? join(config, '.claude.json') : join(t.home, '.claude.json');
  return t.scope === 'global'
    ? {
        settings: join(config, 'settings.json'),
        mcp,
        mcpKeys: ['mcpServers', 'tapedeck'],
        skills: join(config, 'skills'),
      }
    : {
        settings: join(t.workspace, '.claude', 'settings.local.json'),
        mcp,
        mcpKeys: ['projects', t.workspace, 'mcpServers', 'tapedeck'],
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
    what:
      t.scope === 'global' ? 'MCP server tapedeck (stdio)' : 'MCP server tapedeck (stdio) for this project',
    apply: (before) =>
      editJson(before, p.mcp, (o) =>
        mode === 'install'
          ? setPath(o, p.mcpKeys, { type: 'stdio', ...mcpEntry(t.inv) })
          : deletePath(o, p.mcpKeys),
      ),
  };
  const skills = skillEdits(p.skills, mode, false, 'claude-code');
  const retention = retentionEdit(t, mode, hooks);
  const git = gitExcludeEdit(t, mode, [p.settings]);
  return {
    edits: [
      ...(retention?.path === hooks.path ? [retention] : retention ? [hooks, retention] : [hooks]),
      mcp,
      ...skills.edits,
      ...git.edits,
    ],
    dirs: [...skills.dirs, p.skills, dirname(p.settings)],
    notes:
      mode === 'install'
        ? [
            'Start a new Claude Code session (or run /hooks) to load the hooks.',
            ...(t.scope === 'workspace'
              ? [
                  `The MCP server is registered for this project only, in ${p.mcp} (not in the team's .mcp.json).`,
                ]
              : []),
            ...git.notes,
          ]
        : [],
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
