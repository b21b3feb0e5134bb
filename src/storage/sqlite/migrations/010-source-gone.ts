/**
 * History is never lost: when a thread's transcript is deleted (or truncated below what was
 * indexed) the thread and its steps stay, marked with when and how the source went away.
 * `source_gone` is 'deleted' or 'truncated'; both columns are NULL while the source is whole.
 */
export const sql = `
ALTER TABLE threads ADD COLUMN source_gone_at TEXT;
ALTER TABLE threads ADD COLUMN source_gone TEXT;
`;
