import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compilePattern, matchLines } from './grep.js';

test('matches lines with 1-based numbers, up to max', () => {
  const re = compilePattern('post(gres)?', true);
  const r = matchLines(
    re,
    [
      ['Postgres here', 'nothing', 'post'],
      ['x', 'POST'],
    ],
    10,
    1000,
  );
  assert.deepEqual(
    r.matches.map((m) => [m.file, m.line]),
    [
      [0, 1],
      [0, 3],
      [1, 2],
    ],
  );
  assert.equal(r.timedOut, false);
  const capped = matchLines(re, [['post', 'post', 'post']], 2, 1000);
  assert.equal(capped.matches.length, 2);
  assert.equal(capped.full, true);
});

test('a catastrophic regex is stopped by the time budget, keeping what it found', () => {
  const re = compilePattern('^(a+)+$', false);
  const evil = `${'a'.repeat(40)}!`;
  const started = Date.now();
  const r = matchLines(re, [['aaa', evil, 'aaaa']], 100, 150);
  const took = Date.now() - started;
  assert.equal(r.timedOut, true);
  assert.ok(took < 2000, `took ${took} ms`);
  assert.deepEqual(
    r.matches.map((m) => m.line),
    [1],
  );
  assert.deepEqual(r.stoppedAt, { file: 0, line: 2 });
});

test('invalid and empty patterns are INVALID_INPUT', () => {
  assert.throws(() => compilePattern('(', false), { code: 'INVALID_INPUT' });
  assert.throws(() => compilePattern('', false), { code: 'INVALID_INPUT' });
  assert.throws(() => compilePattern('x'.repeat(2000), false), { code: 'INVALID_INPUT' });
  // Non-unicode syntax still works (the u flag is tried first).
  assert.ok(compilePattern('\\-', false).test('-'));
});
