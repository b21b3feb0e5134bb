/**
 * Migration 013. The neighbour column's weight in FTS5's impact order (the rare-word probe keeps
 * the best of its matches by it) goes from 0.3 to 0.6. A reply found by the question it answers matches only in
 * its neighbour field; at 0.3 it fell below the probe's cut among many matches of the same words
 * in steps' own text, where PostgreSQL's impact order (which holds no column weights) kept it:
 * the backends differed by 4 points on answers given a turn later. Ranking itself is unchanged
 * (search/ scores the neighbour field with its own weights). Only the rank configuration
 * changes, not the index.
 */
export const sql = `
INSERT INTO steps_fts(steps_fts, rank) VALUES ('rank', 'bm25(1.3, 1.0, 0.5, 0.6, 0.2, 0.7, 0.1, 0.6)');
`;
