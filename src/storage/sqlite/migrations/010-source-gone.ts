/**
 * History is never lost, and steps are numbered as the agent numbers them.
 *
 * - When a thread's transcript is deleted (or truncated below what was indexed) the thread and its
 *   steps stay, marked with when (`source_gone_at`) and how (`source_gone`: 'deleted' |
 *   'truncated') the source went away; both NULL while the source is whole.
 * - `steps.step` is the number users and agents see (Antigravity's own `step_index`, else the
 *   position); `steps.seq` is the finer internal order that identifies a step in its thread
 *   (Antigravity: step_index * 16 + slot; elsewhere equal to `step`). Existing Antigravity rows,
 *   stored as step_index * 16 + slot, are split into the two.
 */
export const sql = `
ALTER TABLE threads ADD COLUMN source_gone_at TEXT;
ALTER TABLE threads ADD COLUMN source_gone TEXT;

ALTER TABLE steps ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
UPDATE steps SET seq = step;
UPDATE steps SET step = step / 16 WHERE tid IN (SELECT tid FROM threads WHERE agent = 'antigravity');
DROP INDEX steps_thread_step;
CREATE UNIQUE INDEX steps_thread_seq ON steps(tid, seq);
CREATE INDEX steps_thread_step ON steps(tid, step);
`;
