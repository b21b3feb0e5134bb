/**
 * Wiring for export/import: the domain stores themselves (a restore keeps ids and timestamps the
 * services would assign anew), built on first use so other commands pay nothing, and one
 * transaction over the shared database around everything.
 */
import { createPortabilityService, type PortabilityService } from '../../services/portability/index.js';
import { createSqliteKnowledgeCatalog } from '../../storage/sqlite/knowledge-catalog.js';
import { createSqliteMemoryStore } from '../../storage/sqlite/memory-store.js';
import { mapSqliteError } from '../../storage/sqlite/open.js';
import { createSqliteRuleStore } from '../../storage/sqlite/rule-store.js';
import { createSqliteSavedThreadStore } from '../../storage/sqlite/saved-thread-store.js';
import { createSqliteSkillsStore } from '../../storage/sqlite/skills-store.js';
import { createSqliteWikiStore } from '../../storage/sqlite/wiki-store.js';
import { createSqliteWorkingMemoryStore } from '../../storage/sqlite/working-memory-store.js';
import type { KnowledgeContext, WithContext } from '../knowledge.js';
import { VERSION } from '../version.js';

export interface PortabilityServices {
  portability: PortabilityService;
}

export function wirePortability(ctx: KnowledgeContext, deps: WithContext): PortabilityServices {
  let service: PortabilityService | undefined;
  const get = () =>
    (service ??= createPortabilityService({
      memories: createSqliteMemoryStore(ctx.db),
      rules: createSqliteRuleStore(ctx.db),
      skills: createSqliteSkillsStore(ctx.db, ctx.config.dbPath),
      wiki: createSqliteWikiStore(ctx.db, ctx.config.dbPath),
      threads: ctx.store,
      saved: createSqliteSavedThreadStore(ctx.db),
      workingMemory: createSqliteWorkingMemoryStore(ctx.db),
      catalog: createSqliteKnowledgeCatalog(ctx.db),
      spaces: deps.spaces,
      version: VERSION,
      transaction: {
        read: (fn) => guard(() => ctx.db.transaction(fn).deferred()),
        write: (fn) => guard(() => ctx.db.transaction(fn).immediate()),
      },
    }));
  const guard = <T>(fn: () => T): T => {
    try {
      return fn();
    } catch (e) {
      throw mapSqliteError(e, ctx.config.dbPath);
    }
  };
  return {
    portability: {
      export: (dir, opts) => get().export(dir, opts),
      import: (dir, opts) => get().import(dir, opts),
    },
  };
}
