/**
 * FTS5 buffers new terms in memory and writes a segment when the buffer passes `hashsize` (1 MB by
 * default) or the transaction commits. An indexing transaction holds ~4,000 steps, several MB of
 * terms: with the default it wrote several small segments per commit, each merged again later.
 * 8 MB lets one commit write one segment (measured: ~12% less CPU for FTS5 inserts).
 */
export const sql = `
INSERT INTO steps_fts(steps_fts, rank) VALUES ('hashsize', 8388608);
`;
