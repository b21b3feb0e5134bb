/** The fs service assembled from its mounts: what app/wire/fs.ts calls. */
import type { KnowledgeCatalog } from '../../ports/knowledge-catalog.js';
import type { TranscriptStore } from '../../ports/transcript-store.js';
import type { MemoryService } from '../memories.js';
import type { RuleService } from '../rules.js';
import type { SkillsService } from '../skills/service.js';
import type { SpaceService } from '../spaces.js';
import type { TranscriptService } from '../transcripts.js';
import type { WikiService } from '../wiki.js';
import type { WorkingMemoryService } from '../working-memory/index.js';
import { createMemoriesMount } from './mount-memories.js';
import { createRulesMount } from './mount-rules.js';
import { createSkillsMount } from './mount-skills.js';
import { createThreadsMount } from './mount-threads.js';
import { createWikiMount } from './mount-wiki.js';
import { createWorkingMemoryMount } from './mount-working-memory.js';
import { createFsService, type FsService } from './service.js';

export interface FsDeps {
  memories: MemoryService;
  rules: RuleService;
  skills: SkillsService;
  wiki: WikiService;
  spaces: SpaceService;
  transcripts: Pick<TranscriptService, 'search'>;
  store: Pick<TranscriptStore, 'getThread' | 'getSteps' | 'listThreads'>;
  catalog: KnowledgeCatalog;
  workingMemory: WorkingMemoryService;
  now?: () => number;
}

export function createFs(deps: FsDeps): FsService {
  const resolveSpace = (scope: { space?: string; cwd?: string }) =>
    deps.spaces.resolve({ space: scope.space, cwd: scope.cwd });
  return createFsService({
    mounts: [
      createMemoriesMount({ memories: deps.memories, catalog: deps.catalog, resolveSpace }),
      createThreadsMount({ store: deps.store, transcripts: deps.transcripts, catalog: deps.catalog }),
      createSkillsMount({ skills: deps.skills }),
      createRulesMount({ rules: deps.rules }),
      createWikiMount({ wiki: deps.wiki }),
      createWorkingMemoryMount({
        workingMemory: deps.workingMemory,
        catalog: deps.catalog,
        resolveSpace,
        now: deps.now,
      }),
    ],
    now: deps.now,
  });
}

export type * from './service.js';
export type { FsService } from './service.js';
