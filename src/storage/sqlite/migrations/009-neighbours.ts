/**
 * Neighbour text (core/neighbours.ts): `steps.ctx` holds the heads of a turn's previous and next
 * turns, indexed as a low-weight `context` column so a reply is found by the question it answers.
 * Existing stores get the field filled from their stored turns (the same heads ingest writes) and
 * the full-text index rebuilt with the new column; cached term counts are dropped, since a term
 * now also matches through its neighbours.
 */
const head = (x: string) =>
  `replace(replace(replace(substr(coalesce(${x}, ''), 1, 300), char(13), ' '), char(10), ' '), char(9), ' ')`;

export const sql = `
ALTER TABLE steps ADD COLUMN ctx TEXT NOT NULL DEFAULT '';
WITH turns AS (
  SELECT id, lag(text) OVER w AS prev, lead(text) OVER w AS next
  FROM steps WHERE kind IN ('prompt', 'response', 'summary')
  WINDOW w AS (PARTITION BY tid ORDER BY step)
)
UPDATE steps SET ctx = ${head('turns.prev')} || char(10) || ${head('turns.next')}
FROM turns WHERE turns.id = steps.id AND (turns.prev IS NOT NULL OR turns.next IS NOT NULL);

DROP TABLE steps_vocab;
DROP TABLE steps_fts;
DROP VIEW steps_fts_content;
CREATE VIEW steps_fts_content AS
SELECT id,
  CASE WHEN kind = 'prompt' THEN text END AS prompt,
  CASE WHEN kind IN ('response', 'summary') THEN text END AS response,
  CASE WHEN kind = 'reasoning' THEN text END AS reasoning,
  CASE WHEN kind = 'tool_call' THEN text END AS tool_call,
  CASE WHEN kind = 'tool_result' THEN text END AS tool_output,
  CASE WHEN kind IN ('tool_call', 'tool_result') THEN NULL ELSE idents END AS idents,
  CASE WHEN kind IN ('tool_call', 'tool_result') THEN idents END AS tool_idents,
  ctx AS context
FROM steps;
CREATE VIRTUAL TABLE steps_fts USING fts5(
  prompt, response, reasoning, tool_call, tool_output, idents, tool_idents, context,
  content = 'steps_fts_content', content_rowid = 'id',
  tokenize = "porter unicode61 remove_diacritics 2 tokenchars '_'"
);
-- The index's own order only picks candidates (storage/sqlite/retrieval.ts); search/ ranks them.
INSERT INTO steps_fts(steps_fts, rank) VALUES ('rank', 'bm25(1.3, 1.0, 0.5, 0.6, 0.2, 0.7, 0.1, 0.3)');
INSERT INTO steps_fts(steps_fts) VALUES ('rebuild');
CREATE VIRTUAL TABLE steps_vocab USING fts5vocab(steps_fts, 'row');
DELETE FROM term_df;
`;
