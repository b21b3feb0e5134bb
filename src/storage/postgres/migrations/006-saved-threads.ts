/**
 * Saved threads on PostgreSQL: the tables of SQLite's migration 006, same names and columns (see
 * src/storage/sqlite/migrations/006-saved-threads.ts for what each holds). Text stays TEXT — the
 * metadata and replayed results too, so their JSON comes back byte for byte as it was written
 * (jsonb would reorder keys). Keys are `COLLATE "C"`: SQLite compares text bytewise, and the
 * prefix scan and every ORDER BY must sort the same on any server locale.
 */
export const sql = `
CREATE TABLE saved_threads (
  thread_id  TEXT COLLATE "C" PRIMARY KEY,
  source_app TEXT,
  metadata   TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX saved_threads_updated ON saved_threads(updated_at DESC, thread_id);

CREATE TABLE saved_messages (
  thread_id   TEXT COLLATE "C" NOT NULL,
  step        INTEGER NOT NULL,
  external_id TEXT COLLATE "C",
  content_key TEXT COLLATE "C" NOT NULL,
  PRIMARY KEY (thread_id, step)
);
CREATE INDEX saved_messages_external ON saved_messages(thread_id, external_id) WHERE external_id IS NOT NULL;
CREATE INDEX saved_messages_content ON saved_messages(thread_id, content_key);

CREATE TABLE saved_requests (
  key        TEXT COLLATE "C" PRIMARY KEY,
  thread_id  TEXT COLLATE "C" NOT NULL,
  op         TEXT NOT NULL,
  result     TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX saved_requests_thread ON saved_requests(thread_id, created_at, key);
`;
