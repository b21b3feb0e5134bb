/** Wiring for rules (not built yet). */
import type { KnowledgeContext } from '../knowledge.js';

// biome-ignore lint/complexity/noBannedTypes: no services yet
export function wireRules(_ctx: KnowledgeContext): {} {
  return {};
}
