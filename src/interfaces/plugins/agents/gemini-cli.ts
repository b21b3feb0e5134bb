/**
 * Gemini CLI: `mcpServers.tapedeck` and lifecycle hooks (SessionStart → context, PreCompress and
 * SessionEnd → save; timeouts in milliseconds) in `~/.gemini/settings.json` (or the workspace's
 * `.gemini/settings.json`), and a Tapedeck section in GEMINI.md between markers. Releases without
 * hooks ignore the `hooks` entries. Comments and formatting in settings.json are kept.
 */
import { dirname, join } from 'node:path';
import { hookCommand, mcpEntry } from '../command.js';
import { type HookSpec, putEventHooks, removeEventHooks } from '../hooks-json.js';
import { deletePath, editJson, setPath } from '../json-file.js';
import type { FileEdit } from '../plan.js';
import { type AgentPlan, gitExcludeEdit, type Mode, sectionEdit, type Target } from './shared.js';

export const GEMINI_EVENTS = ['SessionStart', 'PreCompress', 'SessionEnd'];

export function geminiPaths(t: Target) {
  return t.scope === 'global'
    ? { settings: join(t.home, '.gemini', 'settings.json'), context: join(t.home, '.gemini', 'GEMINI.md') }
    : { settings: join(t.workspace, '.gemini', 'settings.json'), context: join(t.workspace, 'GEMINI.md') };
}

const kebab = (s: string) => s.replace(/[A-Z]/g, (c, i) => (i ? '-' : '') + c.toLowerCase());

export function geminiPlan(t: Target, mode: Mode): AgentPlan {
  const p = geminiPaths(t);
  const m = mcpEntry(t.inv);
  const specs: HookSpec[] = GEMINI_EVENTS.map((event) => ({
    event,
    handler: {
      name: `tapedeck-${kebab(event)}`,
      type: 'command',
      command: hookCommand(t.inv, 'gemini-cli', event),
      timeout: 10_000,
    },
  }));
  const settings: FileEdit = {
    path: p.settings,
    what: `MCP server tapedeck (stdio); hooks ${GEMINI_EVENTS.join(', ')}`,
    apply: (before) =>
      editJson(before, p.settings, (o) => {
        if (mode === 'install') {
          setPath(o, ['mcpServers', 'tapedeck'], {
            command: m.command,
            args: m.args,
            ...(Object.keys(m.env).length ? { env: m.env } : {}),
          });
          putEventHooks(o, specs);
        } else {
          deletePath(o, ['mcpServers', 'tapedeck']);
          removeEventHooks(o);
        }
      }),
  };
  // Gemini CLI has no local variant of the workspace settings: keep them out of git instead
  const git = gitExcludeEdit(t, mode, [p.settings]);
  return {
    edits: [settings, sectionEdit(p.context, mode, 'gemini-cli'), ...git.edits],
    dirs: [dirname(p.settings)],
    notes: git.notes,
  };
}
