/**
 * Google Antigravity: a plugin folder (`<workspace>/.agents/plugins/tapedeck/` or
 * `~/.gemini/config/plugins/tapedeck/`) with plugin.json, hooks.json, mcp_config.json, rules/tapedeck.md
 * and the skills; plus the same hook group in the top-level hooks.json of that scope
 * (`<workspace>/.agents/hooks.json` or `~/.gemini/config/hooks.json`), because the CLI has been
 * seen to ignore a plugin's hooks.json while honouring those. When both fire, the runtime injects
 * the context once per conversation and saves are idempotent.
 */
import { join } from 'node:path';
import { hookCommand, mcpEntry } from '../command.js';
import { pluginJson, rulesFile } from '../content.js';
import { editJson, formatJson } from '../json-file.js';
import type { FileEdit } from '../plan.js';
import { type AgentPlan, gitExcludeEdit, type Mode, owned, skillEdits, type Target } from './shared.js';

export const GROUP = 'tapedeck';

export function antigravityBase(t: Target): string {
  return t.scope === 'global' ? join(t.home, '.gemini', 'config') : join(t.workspace, '.agents');
}

/** The hook group: `{"PreInvocation": [...], "PreToolUse": [...], "Stop": [...]}`. */
export function hookGroup(t: Target): Record<string, unknown> {
  const cmd = (event: string) => hookCommand(t.inv, 'antigravity', event);
  return {
    PreInvocation: [{ type: 'command', command: cmd('PreInvocation'), timeout: 10 }],
    PreToolUse: [
      { matcher: '^mcp_tapedeck_', hooks: [{ type: 'command', command: cmd('PreToolUse'), timeout: 5 }] },
    ],
    Stop: [{ type: 'command', command: cmd('Stop'), timeout: 10 }],
  };
}

export function antigravityPlan(t: Target, mode: Mode): AgentPlan {
  const base = antigravityBase(t);
  const plugin = join(base, 'plugins', 'tapedeck');
  const group = hookGroup(t);
  const skills = skillEdits(join(plugin, 'skills'), mode, true, 'antigravity');
  const topHooks: FileEdit = {
    path: join(base, 'hooks.json'),
    what: `hook group "${GROUP}" (PreInvocation, PreToolUse, Stop)`,
    apply: (before) =>
      editJson(before, join(base, 'hooks.json'), (o) => {
        if (mode === 'install') o[GROUP] = group;
        else delete o[GROUP];
      }),
  };
  const edits: FileEdit[] = [
    owned(join(plugin, 'plugin.json'), formatJson(pluginJson(), null), mode, 'plugin manifest'),
    owned(join(plugin, 'hooks.json'), formatJson({ [GROUP]: group }, null), mode, 'plugin hooks'),
    owned(
      join(plugin, 'mcp_config.json'),
      formatJson({ mcpServers: { tapedeck: mcpEntry(t.inv) } }, null),
      mode,
      'MCP server tapedeck (stdio)',
    ),
    owned(join(plugin, 'rules', 'tapedeck.md'), rulesFile('antigravity'), mode, 'rule tapedeck'),
    ...skills.edits,
    topHooks,
  ];
  // The plugin holds this machine's absolute paths: keep it out of the repository; so does the
  // top-level hooks.json.
  if (t.scope === 'workspace')
    edits.push(owned(join(plugin, '.gitignore'), '*\n', mode, 'keep the plugin out of git'));
  const git = gitExcludeEdit(t, mode, [topHooks.path]);
  edits.push(...git.edits);
  return {
    edits,
    dirs: [
      ...skills.dirs,
      join(plugin, 'skills'),
      join(plugin, 'rules'),
      plugin,
      join(base, 'plugins'),
      base,
    ],
    notes:
      mode === 'install'
        ? ['Restart Antigravity (or start a new conversation) to load the plugin.', ...git.notes]
        : [],
  };
}
