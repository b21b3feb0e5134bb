import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cosine, nearestRows, packVectors, quantize } from './vectors.js';

const cos = (a: number[], b: number[]) => {
  let d = 0;
  let x = 0;
  let y = 0;
  a.forEach((v, i) => {
    d += v * b[i]!;
    x += v * v;
    y += b[i]! * b[i]!;
  });
  return d / Math.sqrt(x * y);
};

test('int8 vectors keep the cosine of the float ones', () => {
  let seed = 7;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31 - 0.5;
  };
  for (let k = 0; k < 20; k++) {
    const a = Array.from({ length: 512 }, rnd);
    const b = a.map((v) => v + rnd() * (k / 10));
    const q = quantize(b);
    assert.ok(q.every((v) => v >= -127 && v <= 127));
    assert.ok(Math.abs(cosine(Float32Array.from(a), q) - cos(a, b)) < 0.01);
  }
});

test('an all-zero vector, or one of another length, is close to nothing', () => {
  assert.deepEqual([...quantize([0, 0, 0])], [0, 0, 0]);
  assert.equal(cosine(Float32Array.from([1, 2, 3]), quantize([0, 0, 0])), 0);
  assert.equal(cosine(Float32Array.from([0, 0, 0]), quantize([1, 2, 3])), 0);
  assert.equal(cosine(Float32Array.from([1, 2]), quantize([1, 2, 3])), 0);
  assert.ok(Math.abs(cosine(Float32Array.from([1, 2, 3]), quantize([2, 4, 6])) - 1) < 1e-3);
});

test('the nearest rows are the ones with the highest cosine, closest first', () => {
  let seed = 11;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31 - 0.5;
  };
  const rows = Array.from({ length: 300 }, (_, i) => ({
    id: 1000 + i,
    v: quantize(Array.from({ length: 64 }, rnd)),
  }));
  rows.push({ id: 5, v: new Int8Array(64) }); // all zeros: near nothing
  rows.push({ id: 6, v: new Int8Array(32).fill(1) }); // another length: left out
  const m = packVectors(rows);
  assert.equal(m.ids.length, 301);
  const q = Float32Array.from({ length: 64 }, rnd);
  const expected = rows
    .filter((r) => r.v.length === 64 && r.id !== 5)
    .map((r) => ({ id: r.id, c: cosine(q, r.v) }))
    .sort((a, b) => b.c - a.c)
    .slice(0, 10)
    .map((r) => r.id);
  assert.deepEqual(nearestRows(m, q, 10), expected);
  assert.deepEqual(nearestRows(m, q, 1), expected.slice(0, 1));
  assert.equal(nearestRows(m, q, 1000).length, 300);
  assert.deepEqual(nearestRows(m, q, 0), []);
  assert.deepEqual(nearestRows(m, new Float32Array(64), 5), [], 'a zero question is near nothing');
  assert.deepEqual(
    nearestRows(m, new Float32Array(63).fill(1), 5),
    [],
    'another length compares with nothing',
  );
  assert.deepEqual(nearestRows(packVectors([]), q, 5), []);
});
