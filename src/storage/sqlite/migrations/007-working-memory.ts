/**
 * Working memory: the daily briefing per (space, day). `working_memory` records when and from
 * what store state (fingerprint) it was generated; `working_memory_sections` holds each section's
 * generated items (JSON) beside a person's edit of it, in separate columns so a regeneration
 * rewrites only the generated ones and an edit survives it.
 *
 * The index on memories serves the context bundle's bounded reads (storage/sqlite/
 * context-bundle-store.ts): a project's memories, or the project-less ones, newest first, without
 * walking the whole space.
 */
export const sql = `
CREATE TABLE working_memory (
  space        TEXT NOT NULL,
  day          TEXT NOT NULL,
  fingerprint  TEXT NOT NULL,
  generated_at TEXT NOT NULL,
  PRIMARY KEY (space, day)
) WITHOUT ROWID;

CREATE TABLE working_memory_sections (
  space        TEXT NOT NULL,
  day          TEXT NOT NULL,
  section      TEXT NOT NULL,
  items        TEXT NOT NULL DEFAULT '[]',
  generated_at TEXT NOT NULL DEFAULT '',
  edit         TEXT,
  edited_at    TEXT,
  PRIMARY KEY (space, day, section)
) WITHOUT ROWID;

CREATE INDEX memories_space_status_project ON memories(space, status, project, updated_at);
`;
