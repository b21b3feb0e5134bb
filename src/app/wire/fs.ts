/** Wiring for the fs: every knowledge service mounted as one tree, plus the read-only catalog. */
import { createFs, type FsService } from '../../services/fs/index.js';
import type { KnowledgeContext, WithContext } from '../knowledge.js';

export interface FsServices {
  fs: FsService;
}

export function wireFs(ctx: KnowledgeContext, deps: WithContext): FsServices {
  return {
    fs: createFs({
      memories: deps.memories,
      rules: deps.rules,
      skills: deps.skills,
      wiki: deps.wiki,
      spaces: deps.spaces,
      workingMemory: deps.workingMemory,
      transcripts: ctx.transcripts,
      store: ctx.store,
      catalog: ctx.stores.catalog,
    }),
  };
}
