/**
 * Wiring of the knowledge engine's services (memories, rules, skills, wiki, saved threads,
 * working memory, context bundle, fs, export/import) over the same database as the transcripts.
 * Each domain wires itself in app/wire/<domain>.ts; later domains get the earlier services.
 */
import type { Stores } from '../ports/stores.js';
import type { TranscriptStore } from '../ports/transcript-store.js';
import type { TranscriptService } from '../services/transcripts.js';
import type { TapedeckConfig } from './config.js';
import { wireContextBundle } from './wire/context-bundle.js';
import { wireFs } from './wire/fs.js';
import { wireKeys } from './wire/keys.js';
import { wireMemories } from './wire/memories.js';
import { wirePortability } from './wire/portability.js';
import { wireRules } from './wire/rules.js';
import { wireSavedThreads } from './wire/saved-threads.js';
import { wireSkills } from './wire/skills.js';
import { wireWiki } from './wire/wiki.js';
import { wireWorkingMemory } from './wire/working-memory.js';

export interface KnowledgeContext {
  stores: Stores;
  config: TapedeckConfig;
  store: TranscriptStore;
  transcripts: TranscriptService;
}

export type PhaseAServices = ReturnType<typeof wireMemories> &
  ReturnType<typeof wireRules> &
  ReturnType<typeof wireSkills> &
  ReturnType<typeof wireWiki> &
  ReturnType<typeof wireSavedThreads>;
/** What the context bundle is built from. */
export type WithWorkingMemory = PhaseAServices & ReturnType<typeof wireWorkingMemory>;
/** Everything but the cross-cutting fs and export/import services. */
export type WithContext = WithWorkingMemory & ReturnType<typeof wireContextBundle>;
export type KnowledgeServices = WithContext &
  ReturnType<typeof wireFs> &
  ReturnType<typeof wirePortability> &
  ReturnType<typeof wireKeys>;

export function createKnowledgeServices(ctx: KnowledgeContext): KnowledgeServices {
  const a: PhaseAServices = {
    ...wireMemories(ctx),
    ...wireRules(ctx),
    ...wireSkills(ctx),
    ...wireWiki(ctx),
    ...wireSavedThreads(ctx),
  };
  const withWm: WithWorkingMemory = { ...a, ...wireWorkingMemory(ctx, a) };
  const withContext: WithContext = { ...withWm, ...wireContextBundle(ctx, withWm) };
  return {
    ...withContext,
    ...wireFs(ctx, withContext),
    ...wirePortability(ctx, withContext),
    ...wireKeys(ctx),
  };
}
