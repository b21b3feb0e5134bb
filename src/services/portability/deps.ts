/**
 * What export and import work with: the domain stores themselves (not their services), because a
 * restore keeps ids, versions and timestamps that the services would assign anew; the catalog for
 * what the stores cannot enumerate; and one transaction around everything.
 */
import type { KnowledgeCatalog } from '../../ports/knowledge-catalog.js';
import type { MemoryStore } from '../../ports/memory-store.js';
import type { RuleStore } from '../../ports/rule-store.js';
import type { SavedThreadStore } from '../../ports/saved-thread-store.js';
import type { SkillsStore } from '../../ports/skills-store.js';
import type { TranscriptStore } from '../../ports/transcript-store.js';
import type { WikiStore } from '../../ports/wiki-store.js';
import type { WorkingMemoryStore } from '../../ports/working-memory-store.js';
import type { SpaceService } from '../spaces.js';

export interface Transactions {
  /** Run `fn` in one read transaction: a consistent snapshot. */
  read<T>(fn: () => T): T;
  /**
   * Run `fn` in one write transaction spanning every store (Stores.writeAll): the stores' own
   * writes inside it, sync or async, join it. Inside, await only store calls.
   */
  write<T>(fn: () => Promise<T>): Promise<T>;
}

export interface PortabilityDeps {
  memories: MemoryStore;
  rules: RuleStore;
  skills: SkillsStore;
  wiki: WikiStore;
  threads: TranscriptStore;
  saved: SavedThreadStore;
  workingMemory: WorkingMemoryStore;
  catalog: KnowledgeCatalog;
  spaces: SpaceService;
  transaction: Transactions;
  /** Written into the manifest. */
  version: string;
  now?: () => number;
}
