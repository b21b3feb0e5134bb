/** Wiring for saved threads (not built yet). */
import type { KnowledgeContext } from '../knowledge.js';

// biome-ignore lint/complexity/noBannedTypes: no services yet
export function wireSavedThreads(_ctx: KnowledgeContext): {} {
  return {};
}
