/** Wiring for context bundle (not built yet). */
import type { KnowledgeContext, PhaseAServices } from '../knowledge.js';

// biome-ignore lint/complexity/noBannedTypes: no services yet
export function wireContextBundle(_ctx: KnowledgeContext, _deps: PhaseAServices): {} {
  return {};
}
