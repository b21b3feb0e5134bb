/**
 * PostgreSQL twin of SQLite's migration 010: a thread whose transcript was deleted or truncated
 * keeps its steps and records when (`source_gone_at`) and how (`source_gone`: 'deleted' |
 * 'truncated') its source went away.
 */
export const sql = `
ALTER TABLE threads ADD COLUMN source_gone_at TEXT COLLATE "C", ADD COLUMN source_gone TEXT;
`;
