/**
 * Transcript index. Steps live in a plain table; FTS5 indexes them through a view that spreads
 * each step's text into a column per kind, so bm25 column weights rank responses above reasoning
 * above tool output inside SQLite's own top-N ranking. `_` is a token character so snake_case
 * names match whole; `idents` holds joined forms and parts of other identifiers (core/idents.ts),
 * in a separate low-weight column for tool steps so identifiers in tool output stay ranked lowest.
 */
export const sql = `
CREATE TABLE threads (
  tid        INTEGER PRIMARY KEY,
  id         TEXT NOT NULL UNIQUE,
  agent      TEXT NOT NULL,
  session_id TEXT NOT NULL,
  project    TEXT,
  title      TEXT,
  started_at TEXT,
  updated_at TEXT,
  source     TEXT NOT NULL,
  parent_id  TEXT,
  space      TEXT NOT NULL DEFAULT 'default',
  step_count INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX threads_source ON threads(source);
CREATE INDEX threads_agent_updated ON threads(agent, updated_at);
CREATE INDEX threads_updated ON threads(updated_at);

CREATE TABLE steps (
  id       INTEGER PRIMARY KEY,
  tid      INTEGER NOT NULL,
  step     INTEGER NOT NULL,
  role     TEXT NOT NULL,
  kind     TEXT NOT NULL,
  text     TEXT NOT NULL,
  tool     TEXT,
  target   TEXT,
  ts       TEXT,
  line     INTEGER NOT NULL,
  idents   TEXT NOT NULL DEFAULT '',
  hash     INTEGER NOT NULL
);
CREATE UNIQUE INDEX steps_thread_step ON steps(tid, step);

CREATE VIEW steps_fts_content AS
SELECT id,
  CASE WHEN kind = 'prompt' THEN text END AS prompt,
  CASE WHEN kind IN ('response', 'summary') THEN text END AS response,
  CASE WHEN kind = 'reasoning' THEN text END AS reasoning,
  CASE WHEN kind = 'tool_call' THEN text END AS tool_call,
  CASE WHEN kind = 'tool_result' THEN text END AS tool_output,
  CASE WHEN kind IN ('tool_call', 'tool_result') THEN NULL ELSE idents END AS idents,
  CASE WHEN kind IN ('tool_call', 'tool_result') THEN idents END AS tool_idents
FROM steps;

CREATE VIRTUAL TABLE steps_fts USING fts5(
  prompt, response, reasoning, tool_call, tool_output, idents, tool_idents,
  content = 'steps_fts_content', content_rowid = 'id',
  tokenize = "porter unicode61 remove_diacritics 2 tokenchars '_'"
);
INSERT INTO steps_fts(steps_fts, rank) VALUES ('rank', 'bm25(1.3, 1.0, 0.5, 0.6, 0.2, 0.7, 0.1)');
-- Document frequency per term, so queries can be bounded by how common their words are.
CREATE VIRTUAL TABLE steps_vocab USING fts5vocab(steps_fts, 'row');
-- Cached exact frequencies of common words (storage/sqlite/term-stats.ts).
CREATE TABLE term_df (term TEXT PRIMARY KEY, df INTEGER NOT NULL, total INTEGER NOT NULL) WITHOUT ROWID;

CREATE TABLE files (
  path       TEXT PRIMARY KEY,
  agent      TEXT NOT NULL,
  thread_id  TEXT,
  size       INTEGER NOT NULL,
  mtime_ms   REAL NOT NULL,
  inode      INTEGER NOT NULL,
  offset     INTEGER NOT NULL,
  line_no    INTEGER NOT NULL,
  head_hash  TEXT NOT NULL,
  state      TEXT,
  indexed_at TEXT NOT NULL
);

CREATE TABLE issues (
  id      INTEGER PRIMARY KEY,
  path    TEXT NOT NULL,
  line    INTEGER,
  message TEXT NOT NULL,
  at      TEXT NOT NULL
);
CREATE INDEX issues_path ON issues(path);
`;
