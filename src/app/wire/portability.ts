/** Wiring for portability (not built yet). */
import type { KnowledgeContext, WithContext } from '../knowledge.js';

// biome-ignore lint/complexity/noBannedTypes: no services yet
export function wirePortability(_ctx: KnowledgeContext, _deps: WithContext): {} {
  return {};
}
