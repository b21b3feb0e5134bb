/** saved threads (not built yet). */
export const sql = '';
