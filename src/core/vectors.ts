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

/**
 * Dot products of an int8 query with every row of an int8 matrix, 16 components at a time
 * (WebAssembly SIMD: ~10x the plain loop). Assembled from this text (wabt's wat2wasm):
 *
 *   (module (memory (export "memory") 1)
 *     (func (export "dots") (param $q i32) (param $m i32) (param $stride i32) (param $n i32) (param $out i32)
 *       (local $i i32) (local $k i32) (local $acc v128) (local $a v128) (local $b v128)
 *       (block $done (loop $rows
 *         (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
 *         (local.set $acc (v128.const i32x4 0 0 0 0)) (local.set $k (i32.const 0))
 *         (block $row (loop $cols
 *           (br_if $row (i32.ge_u (local.get $k) (local.get $stride)))
 *           (local.set $a (v128.load (i32.add (local.get $q) (local.get $k))))
 *           (local.set $b (v128.load (local.get $m)))
 *           (local.set $acc (i32x4.add (local.get $acc) (i32x4.dot_i16x8_s
 *             (i16x8.extend_low_i8x16_s (local.get $a)) (i16x8.extend_low_i8x16_s (local.get $b)))))
 *           (local.set $acc (i32x4.add (local.get $acc) (i32x4.dot_i16x8_s
 *             (i16x8.extend_high_i8x16_s (local.get $a)) (i16x8.extend_high_i8x16_s (local.get $b)))))
 *           (local.set $m (i32.add (local.get $m) (i32.const 16)))
 *           (local.set $k (i32.add (local.get $k) (i32.const 16))) (br $cols)))
 *         (i32.store (local.get $out) (i32.add
 *           (i32.add (i32x4.extract_lane 0 (local.get $acc)) (i32x4.extract_lane 1 (local.get $acc)))
 *           (i32.add (i32x4.extract_lane 2 (local.get $acc)) (i32x4.extract_lane 3 (local.get $acc)))))
 *         (local.set $out (i32.add (local.get $out) (i32.const 4)))
 *         (local.set $i (i32.add (local.get $i) (i32.const 1))) (br $rows)))))
 */
const DOTS_WASM =
  'AGFzbQEAAAABCQFgBX9/f39/AAMCAQAFAwEAAQcRAgZtZW1vcnkCAARkb3RzAAAKsgEBrwECAn8DewJAA0AgBSADTw0B/QwAAAAAAAAAAAAAAAAAAAAAIQdBACEGAkADQCAGIAJPDQEgACAGav0ABAAhCCAB/QAEACEJIAcgCP2HASAJ/YcB/boB/a4BIQcgByAI/YgBIAn9iAH9ugH9rgEhByABQRBqIQEgBkEQaiEGDAALCyAEIAf9GwAgB/0bAWogB/0bAiAH/RsDamo2AgAgBEEEaiEEIAVBAWohBQwACwsL';
type Dots = (q: number, m: number, stride: number, n: number, out: number) => void;
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
/** The part of the WebAssembly global used here (this Node's type definitions lack it). */
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: { memory: WasmMemory; dots: Dots } };
};
let dotsModule: object | undefined;

/** Many stored vectors of one length, packed for comparing a query with every one of them. */
export interface VectorMatrix {
  ids: readonly number[];
  dims: number;
  /** Each row's length (0 for an all-zero row, which is never near anything). */
  norms: Float32Array;
  /** Every row's dot product with an int8 query of `dims` components. */
  dots(q: Int8Array): Int32Array;
}

/**
 * The rows, packed (rows of another length than the first are left out) into the kernel's memory:
 * the query's slot, then the rows, each padded to a multiple of 16 bytes, then one int32 a row.
 */
export function packVectors(rows: readonly { id: number; v: Int8Array }[]): VectorMatrix {
  const dims = rows[0]?.v.length ?? 0;
  const kept = rows.filter((r) => r.v.length === dims);
  const stride = Math.ceil(dims / 16) * 16;
  const n = kept.length;
  dotsModule ??= new WebAssembly.Module(Uint8Array.from(atob(DOTS_WASM), (c) => c.charCodeAt(0)));
  const { exports } = new WebAssembly.Instance(dotsModule);
  const memory = exports.memory;
  const out = stride * (n + 1);
  const pages = Math.ceil((out + 4 * n) / 65_536);
  if (pages > 1) memory.grow(pages - 1);
  const bytes = new Int8Array(memory.buffer);
  const norms = new Float32Array(n);
  kept.forEach((r, i) => {
    bytes.set(r.v, stride * (i + 1));
    let vv = 0;
    for (let d = 0; d < dims; d++) vv += r.v[d]! * r.v[d]!;
    norms[i] = Math.sqrt(vv);
  });
  const run = exports.dots;
  return {
    ids: kept.map((r) => r.id),
    dims,
    norms,
    dots(q) {
      bytes.fill(0, 0, stride);
      bytes.set(q.subarray(0, dims), 0);
      run(0, stride, stride, n, out);
      return new Int32Array(memory.buffer, out, n);
    },
  };
}

/** The ids of the `limit` rows closest to `q` by cosine, closest first (every row compared). */
export function nearestRows(m: VectorMatrix, q: Float32Array, limit: number): number[] {
  if (q.length !== m.dims || limit <= 0 || m.ids.length === 0) return [];
  const qi = quantize(q);
  if (qi.every((x) => x === 0)) return [];
  const dots = m.dots(qi);
  // The best `limit` so far, ascending by score: a new row enters when it beats the worst.
  const best: { i: number; s: number }[] = [];
  const { norms } = m;
  for (let i = 0; i < norms.length; i++) {
    const norm = norms[i]!;
    if (norm === 0) continue;
    const s = dots[i]! / norm;
    if (best.length === limit && s <= best[0]!.s) continue;
    let k = best.findIndex((b) => b.s > s);
    if (k < 0) k = best.length;
    best.splice(k, 0, { i, s });
    if (best.length > limit) best.shift();
  }
  return best.reverse().map((b) => m.ids[b.i]!);
}
