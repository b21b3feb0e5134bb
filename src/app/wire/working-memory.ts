/** Wiring for working memory: the briefing store, the Phase A memories, and the transcript threads. */
import {
  createWorkingMemoryService,
  type WorkingMemoryService,
} from '../../services/working-memory/index.js';
import type { KnowledgeContext, PhaseAServices } from '../knowledge.js';

export interface WorkingMemoryServices {
  workingMemory: WorkingMemoryService;
}

export function wireWorkingMemory(ctx: KnowledgeContext, deps: PhaseAServices): WorkingMemoryServices {
  return {
    workingMemory: createWorkingMemoryService({
      store: ctx.stores.workingMemory,
      memories: deps.memories,
      threads: ctx.store,
      spaces: deps.spaces,
      projectSpaces: ctx.config.spaces,
      home: ctx.config.home,
    }),
  };
}
