/** Wiring for skills (not built yet). */
import type { KnowledgeContext } from '../knowledge.js';

// biome-ignore lint/complexity/noBannedTypes: no services yet
export function wireSkills(_ctx: KnowledgeContext): {} {
  return {};
}
