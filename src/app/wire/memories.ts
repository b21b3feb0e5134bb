/** Wiring for memories and spaces: the SQLite memory store, the space resolver from config. */
import { createMemoryService, type MemoryService } from '../../services/memories.js';
import { createSpaceService, type SpaceService } from '../../services/spaces.js';
import type { KnowledgeContext } from '../knowledge.js';

export function wireMemories(ctx: KnowledgeContext): { memories: MemoryService; spaces: SpaceService } {
  const spaces = createSpaceService({ envSpace: ctx.config.space, mappings: ctx.config.spaces });
  const memories = createMemoryService({
    store: ctx.stores.memories,
    spaces,
    threads: ctx.store,
  });
  return { memories, spaces };
}
