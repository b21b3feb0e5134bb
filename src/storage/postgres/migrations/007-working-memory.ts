/**
 * Working memory on PostgreSQL: the tables of SQLite's migration 007, same names and columns (see
 * src/storage/sqlite/migrations/007-working-memory.ts). Items stay JSON in TEXT so a briefing
 * reads back exactly as generated. The memories index serves the context bundle's bounded reads,
 * as on SQLite (IF NOT EXISTS: the memories migration may already create it).
 */
export const sql = `
CREATE TABLE working_memory (
  space        TEXT COLLATE "C" NOT NULL,
  day          TEXT COLLATE "C" NOT NULL,
  fingerprint  TEXT NOT NULL,
  generated_at TEXT NOT NULL,
  PRIMARY KEY (space, day)
);

CREATE TABLE working_memory_sections (
  space        TEXT COLLATE "C" NOT NULL,
  day          TEXT COLLATE "C" NOT NULL,
  section      TEXT COLLATE "C" NOT NULL,
  items        TEXT NOT NULL DEFAULT '[]',
  generated_at TEXT NOT NULL DEFAULT '',
  edit         TEXT,
  edited_at    TEXT,
  PRIMARY KEY (space, day, section)
);

CREATE INDEX IF NOT EXISTS memories_space_status_project ON memories(space, status, project, updated_at);
`;
