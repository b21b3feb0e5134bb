/** Wiring for wiki pages: the SQLite store and the space resolver. */
import { createSpaceService } from '../../services/spaces.js';
import { createWikiService, type WikiService } from '../../services/wiki.js';
import type { KnowledgeContext } from '../knowledge.js';

export function wireWiki(ctx: KnowledgeContext): { wiki: WikiService } {
  const spaces = createSpaceService({ envSpace: ctx.config.space, mappings: ctx.config.spaces });
  return {
    wiki: createWikiService({
      store: ctx.stores.wiki,
      resolveSpace: ({ space, cwd }) => spaces.resolve({ space, cwd }),
    }),
  };
}
