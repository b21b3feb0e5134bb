import type { UnitType } from '../core/memory.js';

/** The fields of a memory the context bundle weighs and shows. */
export interface MemoryPick {
  id: string;
  title: string;
  content: string;
  unit_type: UnitType;
  project: string | null;
  importance: number;
  updated_at: string;
}

/** Where to pick memories from: a project (the directory and below), space-wide ones, or all. */
export type PickScope = { project: string } | { project: null } | 'all';

/**
 * Bounded reads of candidate memories for the context bundle (one implementation,
 * storage/context-bundle-store.ts, for every backend).
 * Every call costs about `limit` (or `window`) index entries, whatever the store size.
 */
export interface ContextBundleStore {
  /**
   * Active memories of `space` in `scope`: the `limit` most recently updated, and the `limit`
   * most important among the `window` most recently updated (newest first on ties); deduplicated.
   */
  pickMemories(space: string, scope: PickScope, limit: number, window: number): Promise<MemoryPick[]>;
}
