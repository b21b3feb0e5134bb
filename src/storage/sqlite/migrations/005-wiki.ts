/** wiki (not built yet). */
export const sql = '';
