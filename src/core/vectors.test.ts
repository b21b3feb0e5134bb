import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cosine, quantize } from './vectors.js';

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
