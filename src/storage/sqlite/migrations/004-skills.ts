/** skills (not built yet). */
export const sql = '';
