/** working memory (not built yet). */
export const sql = '';
