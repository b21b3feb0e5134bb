/**
 * PostgreSQL twin of SQLite's migration 010: a thread whose transcript was deleted or truncated
 * keeps its steps and records when (`source_gone_at`) and how (`source_gone`: 'deleted' |
 * 'truncated') its source went away; `steps.step` becomes the number users see (Antigravity's
 * `step_index`) and `steps.seq` the internal order that identifies a step in its thread.
 */
export const sql = `
ALTER TABLE threads ADD COLUMN source_gone_at TEXT COLLATE "C", ADD COLUMN source_gone TEXT;

ALTER TABLE steps ADD COLUMN seq BIGINT;
UPDATE steps SET seq = step;
UPDATE steps SET step = step / 16 WHERE tid IN (SELECT tid FROM threads WHERE agent = 'antigravity');
ALTER TABLE steps ALTER COLUMN seq SET NOT NULL;
DROP INDEX steps_thread_step;
CREATE UNIQUE INDEX steps_thread_seq ON steps(tid, seq);
CREATE INDEX steps_thread_step ON steps(tid, step);
`;
