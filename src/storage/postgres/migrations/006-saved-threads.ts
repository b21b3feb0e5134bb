/** PostgreSQL schema: saved threads (filled by whoever owns 001). Mirrors the SQLite tables' names and columns. */
export const sql = `
SELECT 1;
`;
