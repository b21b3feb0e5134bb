/** Agent id → source adapter. Unknown ids fail fast, naming the known ones. */
import { invalidInput } from '../core/errors.js';
import { AGENT_IDS, type AgentId, isAgentId } from '../core/types.js';
import type { SourceAdapter } from '../ports/source.js';
import { antigravityAdapter } from './antigravity/index.js';
import { claudeCodeAdapter } from './claude-code/index.js';
import { codexAdapter } from './codex/index.js';
import { geminiCliAdapter } from './gemini-cli/index.js';

export const ADAPTERS: readonly SourceAdapter[] = [
  antigravityAdapter,
  claudeCodeAdapter,
  codexAdapter,
  geminiCliAdapter,
];

export function getAdapter(id: string): SourceAdapter {
  if (!isAgentId(id)) throw invalidInput(`Unknown agent "${id}"; known agents: ${AGENT_IDS.join(', ')}`);
  return ADAPTERS.find((a) => a.id === id)!;
}

export function parseAgentIds(ids: readonly string[]): AgentId[] {
  return ids.map((id) => getAdapter(id).id);
}
