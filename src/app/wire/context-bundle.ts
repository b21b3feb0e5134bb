/** Wiring for the context bundle: rules, working memory and skills of the engine, and bounded memory reads. */
import { type ContextBundleService, createContextBundleService } from '../../services/context-bundle.js';
import type { KnowledgeContext, WithWorkingMemory } from '../knowledge.js';

export interface ContextBundleServices {
  contextBundle: ContextBundleService;
}

export function wireContextBundle(ctx: KnowledgeContext, deps: WithWorkingMemory): ContextBundleServices {
  return {
    contextBundle: createContextBundleService({
      rules: deps.rules,
      store: ctx.stores.contextBundle,
      skills: deps.skills,
      workingMemory: deps.workingMemory,
      spaces: deps.spaces,
    }),
  };
}
