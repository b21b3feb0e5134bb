/** Wiring for skills: the SQLite store, the space resolver, and thread-step checks for evidence. */
import { createSkillsService, type SkillsService } from '../../services/skills/service.js';
import { createSpaceService } from '../../services/spaces.js';
import type { KnowledgeContext } from '../knowledge.js';

export function wireSkills(ctx: KnowledgeContext): { skills: SkillsService } {
  const spaces = createSpaceService({ envSpace: ctx.config.space, mappings: ctx.config.spaces });
  const skills = createSkillsService({
    store: ctx.stores.skills,
    resolveSpace: ({ space, cwd }) => spaces.resolve({ space, cwd }),
    threadStep: (thread, step) =>
      !ctx.store.getThread(thread)
        ? 'no-thread'
        : ctx.store.getSteps(thread, step, step, 1).length
          ? 'ok'
          : 'no-step',
  });
  return { skills };
}
