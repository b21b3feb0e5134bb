/** rules (not built yet). */
export const sql = '';
