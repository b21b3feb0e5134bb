/**
 * What only a saved thread has, beside its thread and steps in the TranscriptStore: the client's
 * app name and metadata, each message's external id and content key, and idempotency records.
 *
 * Every method that is part of a change must run inside `TranscriptStore.write(fn)`: both stores
 * share one database, so the steps and these rows commit or roll back together, and reads made
 * there see the state no other writer can change before the commit.
 */

export interface SavedThreadInfo {
  threadId: string;
  /** The client's own name for its app, as given (`google-antigravity`, `cursor`, …). */
  sourceApp?: string;
  metadata?: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

export interface SavedMessageKey {
  step: number;
  externalId?: string;
  /** `<role>:<hash of the normalized text>`: what deduplication compares without an external id. */
  contentKey: string;
}

export interface SavedRequest {
  key: string;
  threadId: string;
  op: string;
  /** The result returned the first time, replayed as is. */
  result: unknown;
  createdAt: string;
}

export interface SavedThreadStore {
  get(threadId: string): SavedThreadInfo | undefined;
  /** Saved threads, most recently updated first. */
  list(limit: number, offset: number): SavedThreadInfo[];
  /** Create the row, or update its app, metadata and updated time. */
  put(info: SavedThreadInfo): void;
  /** Set the thread's space (a column of the shared `threads` table). */
  setSpace(threadId: string, space: string): void;
  messageCount(threadId: string): number;
  messageKeys(threadId: string): SavedMessageKey[];
  /** Whether a message with this external id exists (at a step below `beforeStep`, when given). */
  hasExternalId(threadId: string, externalId: string, beforeStep?: number): boolean;
  /** Whether a message with this content key exists at a step below `beforeStep`. */
  hasContentKey(threadId: string, contentKey: string, beforeStep: number): boolean;
  addMessage(threadId: string, key: SavedMessageKey): void;
  /** Forget message keys at steps >= `from`. */
  truncateMessages(threadId: string, from: number): void;
  getRequest(key: string): SavedRequest | undefined;
  saveRequest(request: SavedRequest): void;
  /** Ids of saved threads starting with `prefix`. */
  idsWithPrefix(prefix: string): string[];
}
