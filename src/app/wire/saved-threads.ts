/** Wiring for saved threads: the service over the transcript store and the saved-thread tables. */
import { createSavedThreadService } from '../../services/saved-threads/index.js';
import type { KnowledgeContext } from '../knowledge.js';

export function wireSavedThreads(ctx: KnowledgeContext) {
  return {
    savedThreads: createSavedThreadService({
      store: ctx.store,
      saved: ctx.stores.saved,
      policy: ctx.config.policy,
    }),
  };
}
