/** Wiring for standing rules: the SQLite rule store and the same space resolution as memories. */
import { createRuleService, type RuleService } from '../../services/rules.js';
import { createSpaceService } from '../../services/spaces.js';
import type { KnowledgeContext } from '../knowledge.js';

export function wireRules(ctx: KnowledgeContext): { rules: RuleService } {
  const spaces = createSpaceService({ envSpace: ctx.config.space, mappings: ctx.config.spaces });
  return { rules: createRuleService({ store: ctx.stores.rules, spaces }) };
}
