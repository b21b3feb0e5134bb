/** Wiring for wiki (not built yet). */
import type { KnowledgeContext } from '../knowledge.js';

// biome-ignore lint/complexity/noBannedTypes: no services yet
export function wireWiki(_ctx: KnowledgeContext): {} {
  return {};
}
