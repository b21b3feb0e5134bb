/** Wiring for wiki pages: the SQLite store and the space resolver. */
import { createSpaceService } from '../../services/spaces.js';
import { createWikiService, type WikiService } from '../../services/wiki.js';
import { createSqliteWikiStore } from '../../storage/sqlite/wiki-store.js';
import type { KnowledgeContext } from '../knowledge.js';

export function wireWiki(ctx: KnowledgeContext): { wiki: WikiService } {
  const spaces = createSpaceService({ envSpace: ctx.config.space, mappings: ctx.config.spaces });
  return {
    wiki: createWikiService({
      store: createSqliteWikiStore(ctx.db, ctx.config.dbPath),
      resolveSpace: ({ space, cwd }) => spaces.resolve({ space, cwd }),
    }),
  };
}
