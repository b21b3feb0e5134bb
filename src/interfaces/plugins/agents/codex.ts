/**
 * Codex CLI: `[mcp_servers.tapedeck]` in `${CODEX_HOME:-~/.codex}/config.toml` (or the workspace's
 * `.codex/config.toml`), edited as one table so the rest of the file stays byte for byte; a Tapedeck
 * section in AGENTS.md between markers; and lifecycle hooks (SessionStart → context, Stop → save)
 * in hooks.json beside config.toml, for Codex versions that have hooks (older ones ignore the file;
 * some need `[features] codex_hooks = true`, and Codex asks to trust new hooks in /hooks).
 */
import { dirname, join } from 'node:path';
import { putTable, removeTable, renderTable } from '../../../core/toml-section.js';
import { hookCommand, mcpEntry } from '../command.js';
import { type HookSpec, putEventHooks, removeEventHooks } from '../hooks-json.js';
import { editJson } from '../json-file.js';
import type { FileEdit } from '../plan.js';
import { type AgentPlan, gitExcludeEdit, type Mode, sectionEdit, type Target } from './shared.js';

export const TABLE = ['mcp_servers', 'tapedeck'];
export const TOML_MARKER =
  '# tapedeck: written by `tapedeck install codex`; `tapedeck uninstall codex` removes this table';
export const CODEX_EVENTS = ['SessionStart', 'Stop'];

export function codexPaths(t: Target) {
  const base =
    t.scope === 'global' ? t.env.CODEX_HOME || join(t.home, '.codex') : join(t.workspace, '.codex');
  return {
    config: join(base, 'config.toml'),
    hooks: join(base, 'hooks.json'),
    agents: t.scope === 'global' ? join(base, 'AGENTS.md') : join(t.workspace, 'AGENTS.md'),
  };
}

export function codexPlan(t: Target, mode: Mode): AgentPlan {
  const p = codexPaths(t);
  const m = mcpEntry(t.inv);
  const table = renderTable(
    TABLE,
    { command: m.command, args: m.args, ...(Object.keys(m.env).length ? { env: m.env } : {}) },
    TOML_MARKER,
  );
  const config: FileEdit = {
    path: p.config,
    what: '[mcp_servers.tapedeck] (stdio)',
    apply(before) {
      const text = before ?? '';
      const out =
        mode === 'install'
          ? putTable(text, TABLE, table, TOML_MARKER)
          : removeTable(text, TABLE, TOML_MARKER);
      if (out === text) return before;
      return out === '' ? null : out;
    },
  };
  const specs: HookSpec[] = CODEX_EVENTS.map((event) => ({
    event,
    ...(event === 'SessionStart' ? { matcher: 'startup|resume|clear' } : {}),
    handler: { type: 'command', command: hookCommand(t.inv, 'codex', event), timeout: 10 },
  }));
  const hooks: FileEdit = {
    path: p.hooks,
    what: `hooks ${CODEX_EVENTS.join(', ')}`,
    apply: (before) =>
      editJson(before, p.hooks, (o) => (mode === 'install' ? putEventHooks(o, specs) : removeEventHooks(o))),
  };
  // the workspace's .codex/ files hold this machine's paths; AGENTS.md's section does not
  const git = gitExcludeEdit(t, mode, [p.config, p.hooks]);
  return {
    edits: [config, sectionEdit(p.agents, mode, 'codex'), hooks, ...git.edits],
    dirs: [dirname(p.config)],
    notes:
      mode === 'install'
        ? [
            'Codex hooks: versions that gate them need `[features] codex_hooks = true` in config.toml; trust the new hooks when Codex asks (/hooks).',
            ...git.notes,
          ]
        : [],
  };
}
