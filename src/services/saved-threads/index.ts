/**
 * The saved-threads service: import, idempotent append, tail reconcile, handoff, and reading
 * saved threads back. Every interface (CLI, MCP, HTTP) calls this.
 */
import type { IndexPolicy } from '../../ingest/prepare-step.js';
import type { SavedThreadStore } from '../../ports/saved-thread-store.js';
import type { TranscriptStore } from '../../ports/transcript-store.js';
import { createHandoff } from './handoff.js';
import { createSavedThreadCore } from './service.js';

export interface SavedThreadsDeps {
  store: TranscriptStore;
  saved: SavedThreadStore;
  policy: IndexPolicy;
  now?: () => number;
  newId?: () => string;
}

export function createSavedThreadService(deps: SavedThreadsDeps) {
  const core = createSavedThreadCore(deps);
  const { createOwn: _createOwn, requireSaved: _requireSaved, ...api } = core;
  return { ...api, handoff: createHandoff({ store: deps.store, saved: deps.saved, core }) };
}

export type SavedThreadService = ReturnType<typeof createSavedThreadService>;
export type { HandoffInput, HandoffResult } from './handoff.js';
export {
  type AppendInput,
  appendInputFrom,
  type ImportInput,
  importInputFrom,
  type ReconcileInput,
  reconcileInputFrom,
} from './input.js';
export type { ReconcileResult, SavedThreadDetail, SavedThreadSummary, SaveResult } from './service.js';
