/** Wiring for context bundle (not built yet). */
import type { KnowledgeContext, WithWorkingMemory } from '../knowledge.js';

// biome-ignore lint/complexity/noBannedTypes: no services yet
export function wireContextBundle(_ctx: KnowledgeContext, _deps: WithWorkingMemory): {} {
  return {};
}
