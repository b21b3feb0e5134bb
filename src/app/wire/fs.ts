/** Wiring for fs (not built yet). */
import type { KnowledgeContext, WithContext } from '../knowledge.js';

// biome-ignore lint/complexity/noBannedTypes: no services yet
export function wireFs(_ctx: KnowledgeContext, _deps: WithContext): {} {
  return {};
}
