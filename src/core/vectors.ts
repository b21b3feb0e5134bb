/**
 * Meaning vectors as stored: int8, each scaled so its largest component is ±127 (cosine does not
 * see the scale), a quarter of float32's size.
 */

/** A float vector as int8. */
export function quantize(v: ArrayLike<number>): Int8Array {
  let max = 0;
  for (let i = 0; i < v.length; i++) max = Math.max(max, Math.abs(v[i]!));
  const out = new Int8Array(v.length);
  if (max === 0) return out;
  const k = 127 / max;
  for (let i = 0; i < v.length; i++) out[i] = Math.round(v[i]! * k);
  return out;
}

/** Cosine similarity of a query vector and a stored one (0 when either is all zeros or they differ in length). */
export function cosine(q: Float32Array, v: Int8Array): number {
  if (q.length !== v.length) return 0;
  let dot = 0;
  let qq = 0;
  let vv = 0;
  for (let i = 0; i < q.length; i++) {
    const a = q[i]!;
    const b = v[i]!;
    dot += a * b;
    qq += a * a;
    vv += b * b;
  }
  return qq > 0 && vv > 0 ? dot / Math.sqrt(qq * vv) : 0;
}

/** Many stored vectors of one length, packed for comparing a query with every one of them. */
export interface VectorMatrix {
  ids: readonly number[];
  dims: number;
  /** Row i is ids[i]'s vector. */
  values: Int8Array;
  /** Each row's length (0 for an all-zero row, which is never near anything). */
  norms: Float32Array;
}

/** The rows, packed (rows of another length than the first are left out). */
export function packVectors(rows: readonly { id: number; v: Int8Array }[]): VectorMatrix {
  const dims = rows[0]?.v.length ?? 0;
  const kept = rows.filter((r) => r.v.length === dims);
  const values = new Int8Array(kept.length * dims);
  const norms = new Float32Array(kept.length);
  kept.forEach((r, i) => {
    values.set(r.v, i * dims);
    let vv = 0;
    for (let d = 0; d < dims; d++) vv += r.v[d]! * r.v[d]!;
    norms[i] = Math.sqrt(vv);
  });
  return { ids: kept.map((r) => r.id), dims, values, norms };
}

/** The ids of the `limit` rows closest to `q` by cosine, closest first (every row compared). */
export function nearestRows(m: VectorMatrix, q: Float32Array, limit: number): number[] {
  if (q.length !== m.dims || limit <= 0) return [];
  let qq = 0;
  for (let d = 0; d < q.length; d++) qq += q[d]! * q[d]!;
  if (qq === 0) return [];
  // The best `limit` so far, ascending by score: a new row enters when it beats the worst.
  const best: { i: number; s: number }[] = [];
  const { dims, values, norms } = m;
  for (let i = 0, at = 0; i < norms.length; i++, at += dims) {
    const norm = norms[i]!;
    if (norm === 0) continue;
    let dot = 0;
    for (let d = 0; d < dims; d++) dot += q[d]! * values[at + d]!;
    const s = dot / norm;
    if (best.length === limit && s <= best[0]!.s) continue;
    let k = best.findIndex((b) => b.s > s);
    if (k < 0) k = best.length;
    best.splice(k, 0, { i, s });
    if (best.length > limit) best.shift();
  }
  return best.reverse().map((b) => m.ids[b.i]!);
}
