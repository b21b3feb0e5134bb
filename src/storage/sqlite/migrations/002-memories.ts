/** memories (not built yet). */
export const sql = '';
