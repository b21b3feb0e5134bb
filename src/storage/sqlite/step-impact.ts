/**
 * A step's own worth when picking among steps that all hold a probe's words, from the row FTS5
 * already keeps for it: the token count of each column (`steps_fts_docsize.sz`, one varint per
 * column). The kind's column says what the step is (a prompt counts more than tool output, with
 * FTS5's rank weights) and its token count gives BM25's length normalisation for one occurrence —
 * PostgreSQL's order for the same probes (storage/postgres/transcript-retrieval.ts). It stands in
 * for bm25() where bm25 costs most: before ranking one row, FTS5's bm25 counts every match of
 * each of the query's words for their idf (~3 ms per probe of two common words at 1M steps).
 */

/** Weights of the text columns, in the FTS table's column order (migration 009's rank weights). */
const KIND_COLUMN_WEIGHTS = [1.3, 1.0, 0.5, 0.6, 0.2];
const K1 = 1.2;
const B = 0.75;

/** Decode the text columns' token counts: the kind's column index and its size. */
export function kindAndSize(sz: Uint8Array | null): { column: number; size: number } {
  if (!sz) return { column: -1, size: 0 };
  let at = 0;
  for (let col = 0; col < KIND_COLUMN_WEIGHTS.length && at < sz.length; col++) {
    // SQLite varint: 7 bits a byte, high bit set on all but the last (counts never need 9 bytes).
    let v = 0;
    let byte: number;
    do {
      byte = sz[at++]!;
      v = v * 128 + (byte & 0x7f);
    } while (byte & 0x80 && at < sz.length);
    if (v > 0) return { column: col, size: v };
  }
  return { column: -1, size: 0 };
}

/** Kind weight × BM25's saturation of one occurrence at this length (`avgSize`: mean tokens). */
export function stepImpact(sz: Uint8Array | null, avgSize: number): number {
  const { column, size } = kindAndSize(sz);
  const w = column < 0 ? 1 : KIND_COLUMN_WEIGHTS[column]!;
  return (w * (K1 + 1)) / (1 + K1 * (1 - B + (B * size) / Math.max(1, avgSize)));
}
