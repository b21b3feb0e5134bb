/**
 * Which agents are connected, for `tapedeck status`: an install plan that would change nothing means
 * installed and current; an uninstall plan that would change nothing means not installed; anything
 * else means an older or edited install (moved Tapedeck, another Node, files changed by hand) that
 * `tapedeck install <agent>` would repair.
 */
import { AGENT_IDS, type AgentId } from '../../core/types.js';
import type { Scope } from './agents/shared.js';
import { type InstallOptions, runInstall } from './install.js';

export interface IntegrationState {
  agent: AgentId;
  scope: Scope;
  state: 'installed' | 'outdated' | 'not installed' | 'unreadable';
  /** Files that would change on `tapedeck install` (outdated), or why it could not be read. */
  detail?: string[];
}

export function installedIntegrations(base: Omit<InstallOptions, 'agent' | 'mode'>): IntegrationState[] {
  const out: IntegrationState[] = [];
  for (const agent of AGENT_IDS)
    for (const scope of ['global', 'workspace'] as const) {
      try {
        const plan = (mode: 'install' | 'uninstall') =>
          runInstall({
            ...base,
            agent,
            mode,
            dryRun: true,
            workspace: scope === 'workspace',
            global: scope === 'global',
          }).plan.changes.filter((c) => c.kind !== 'unchanged');
        const changed = plan('install');
        if (changed.length === 0) out.push({ agent, scope, state: 'installed' });
        // Uninstall finds only this agent's own entries for this scope (not another scope's in a
        // shared file such as ~/.claude.json or .git/info/exclude): nothing to remove, nothing installed.
        else if (plan('uninstall').length === 0) out.push({ agent, scope, state: 'not installed' });
        else out.push({ agent, scope, state: 'outdated', detail: changed.map((c) => c.path) });
      } catch (e) {
        out.push({ agent, scope, state: 'unreadable', detail: [(e as Error).message] });
      }
    }
  return out;
}
