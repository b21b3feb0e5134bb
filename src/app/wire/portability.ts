/**
 * Wiring for export/import: the domain stores themselves (a restore keeps ids and timestamps the
 * services would assign anew), built on first use so other commands pay nothing, and one
 * transaction over the backend around everything.
 */
import { createPortabilityService, type PortabilityService } from '../../services/portability/index.js';
import type { KnowledgeContext, WithContext } from '../knowledge.js';
import { VERSION } from '../version.js';

export interface PortabilityServices {
  portability: PortabilityService;
}

export function wirePortability(ctx: KnowledgeContext, deps: WithContext): PortabilityServices {
  let service: PortabilityService | undefined;
  const get = () =>
    (service ??= createPortabilityService({
      memories: ctx.stores.memories,
      rules: ctx.stores.rules,
      skills: ctx.stores.skills,
      wiki: ctx.stores.wiki,
      threads: ctx.store,
      saved: ctx.stores.saved,
      workingMemory: ctx.stores.workingMemory,
      catalog: ctx.stores.catalog,
      spaces: deps.spaces,
      version: VERSION,
      transaction: {
        read: (fn) => ctx.stores.transaction(fn, 'read'),
        write: (fn) => ctx.stores.writeAll(fn),
      },
    }));
  return {
    portability: {
      export: (dir, opts) => get().export(dir, opts),
      import: (dir, opts) => get().import(dir, opts),
    },
  };
}
