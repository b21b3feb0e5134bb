/**
 * Memories. The row is the record; `status` (active | superseded | forgotten) is kept beside the
 * lifecycle columns so listings walk an index. Full-text search is a contentless FTS5 table
 * (the text lives once, in `memories`) with a `tags` column of filter tokens (space, type,
 * labels, project and its parent directories, status) at bm25 weight 0: filters become part of
 * the MATCH, so FTS5's own top-N by rank is already filtered and the candidate set stays bounded.
 */
export const sql = `
CREATE TABLE memories (
  mid           INTEGER PRIMARY KEY,
  id            TEXT NOT NULL UNIQUE,
  title         TEXT NOT NULL,
  content       TEXT NOT NULL,
  unit_type     TEXT NOT NULL,
  labels        TEXT NOT NULL DEFAULT '[]',
  importance    REAL NOT NULL DEFAULT 0.5,
  confidence    REAL NOT NULL DEFAULT 1,
  space         TEXT NOT NULL DEFAULT 'default',
  project       TEXT,
  thread_id     TEXT,
  step_from     INTEGER,
  step_to       INTEGER,
  source        TEXT,
  event_start   TEXT,
  event_end     TEXT,
  created_at    TEXT NOT NULL,
  updated_at    TEXT NOT NULL,
  valid_from    TEXT NOT NULL,
  valid_to      TEXT,
  superseded_by TEXT,
  forgotten_at  TEXT,
  status        TEXT NOT NULL DEFAULT 'active',
  content_hash  TEXT NOT NULL
);
CREATE INDEX memories_space_status_updated ON memories(space, status, updated_at);
CREATE INDEX memories_status_updated ON memories(status, updated_at);
-- as-of and all-status listings walk a space newest-first instead of sorting it.
CREATE INDEX memories_space_updated ON memories(space, updated_at);
CREATE INDEX memories_dedup ON memories(space, content_hash);
CREATE INDEX memories_superseded_by ON memories(superseded_by) WHERE superseded_by IS NOT NULL;
CREATE INDEX memories_thread ON memories(thread_id) WHERE thread_id IS NOT NULL;

CREATE TABLE memory_labels (
  label TEXT NOT NULL,
  mid   INTEGER NOT NULL REFERENCES memories(mid) ON DELETE CASCADE,
  PRIMARY KEY (label, mid)
) WITHOUT ROWID;
CREATE INDEX memory_labels_mid ON memory_labels(mid);

-- MinHash band keys of active memories (core/near-duplicate.ts): near-duplicate candidates by
-- index lookup instead of a scan.
CREATE TABLE memory_bands (
  band INTEGER NOT NULL,
  mid  INTEGER NOT NULL,
  PRIMARY KEY (band, mid)
) WITHOUT ROWID;
CREATE INDEX memory_bands_mid ON memory_bands(mid);

CREATE VIRTUAL TABLE memories_fts USING fts5(
  title, content, labels, idents, tags,
  content = '', contentless_delete = 1,
  tokenize = "porter unicode61 remove_diacritics 2 tokenchars '_'"
);
INSERT INTO memories_fts(memories_fts, rank) VALUES ('rank', 'bm25(2.0, 1.0, 1.5, 0.5, 0.0)');
`;
