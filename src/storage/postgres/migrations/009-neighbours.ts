/**
 * Neighbour text (core/neighbours.ts), as SQLite's migration 009: `steps.ctx` holds the heads of
 * a turn's previous and next turns; the store indexes it in the step's tsvector at weight D. The
 * tsvector is built in JS (transcript-fts.ts), so existing rows get the field filled here but
 * enter the index with it only when re-indexed (`tapedeck index --full`); cached counts go.
 */
const head = (x: string) => `translate(left(coalesce(${x}, ''), 300), E'\\r\\n\\t', '   ')`;

export const sql = `
ALTER TABLE steps ADD COLUMN ctx TEXT NOT NULL DEFAULT '';
WITH turns AS (
  SELECT id, lag(text) OVER w AS prev, lead(text) OVER w AS next
  FROM steps WHERE kind IN ('prompt', 'response', 'summary')
  WINDOW w AS (PARTITION BY tid ORDER BY step)
)
UPDATE steps SET ctx = ${head('turns.prev')} || E'\\n' || ${head('turns.next')}
FROM turns WHERE turns.id = steps.id AND (turns.prev IS NOT NULL OR turns.next IS NOT NULL);
DELETE FROM term_df;
`;
