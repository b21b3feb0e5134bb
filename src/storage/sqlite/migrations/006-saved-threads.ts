/**
 * Saved threads: conversations a client uploads (import, append, reconcile) and handoffs. Their
 * text lives in the transcript `threads`/`steps` tables (so search, show and list cover them
 * unchanged); these tables hold what only a saved thread has:
 * - `saved_threads`: the client's own name for its app (`source_app`, kept raw when it is not a
 *   known agent id) and free metadata (JSON);
 * - `saved_messages`: per message (= step) the client's external id and a content key
 *   (`<role>:<sha256 of the normalized, redacted text>`), which is what append deduplicates on;
 * - `saved_requests`: idempotency keys with the first result, so a replayed request writes
 *   nothing and answers the same.
 */
export const sql = `
CREATE TABLE saved_threads (
  thread_id  TEXT PRIMARY KEY,
  source_app TEXT,
  metadata   TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE saved_messages (
  thread_id   TEXT NOT NULL,
  step        INTEGER NOT NULL,
  external_id TEXT,
  content_key TEXT NOT NULL,
  PRIMARY KEY (thread_id, step)
);
CREATE INDEX saved_messages_external ON saved_messages(thread_id, external_id) WHERE external_id IS NOT NULL;
CREATE INDEX saved_messages_content ON saved_messages(thread_id, content_key);

CREATE TABLE saved_requests (
  key        TEXT PRIMARY KEY,
  thread_id  TEXT NOT NULL,
  op         TEXT NOT NULL,
  result     TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX saved_requests_thread ON saved_requests(thread_id);
`;
