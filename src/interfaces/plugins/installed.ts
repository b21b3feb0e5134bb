/**
 * Which agents are connected, for `tapedeck status`: an install plan that would change nothing means
 * installed and current; one that would only add means not installed; anything else means an
 * older or edited install (moved Tapedeck, another Node, files changed by hand) that
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
        const r = runInstall({
          ...base,
          agent,
          mode: 'install',
          dryRun: true,
          workspace: scope === 'workspace',
          global: scope === 'global',
        });
        const changed = r.plan.changes.filter((c) => c.kind !== 'unchanged');
        const traces = changed.filter((c) => c.before !== null && /tapedeck/i.test(c.before));
        if (changed.length === 0) out.push({ agent, scope, state: 'installed' });
        else if (traces.length === 0 && changed.length === r.plan.changes.length)
          out.push({ agent, scope, state: 'not installed' });
        else out.push({ agent, scope, state: 'outdated', detail: changed.map((c) => c.path) });
      } catch (e) {
        out.push({ agent, scope, state: 'unreadable', detail: [(e as Error).message] });
      }
    }
  return out;
}
