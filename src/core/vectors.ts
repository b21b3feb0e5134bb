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
