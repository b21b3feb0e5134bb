/** Wiring for memories (not built yet). */
import type { KnowledgeContext } from '../knowledge.js';

// biome-ignore lint/complexity/noBannedTypes: no services yet
export function wireMemories(_ctx: KnowledgeContext): {} {
  return {};
}
