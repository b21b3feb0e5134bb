import assert from 'node:assert/strict';
import { test } from 'node:test';
import { globToRegExp } from './glob.js';

test('globs: *, ?, classes, braces, and everything else literal', () => {
  const m = (g: string, s: string) => globToRegExp(g).test(s);
  assert.ok(m('*.md', 'SKILL.md'));
  assert.ok(!m('*.md', 'SKILL.mdx'));
  assert.ok(m('20??-*', '2026-03'));
  assert.ok(m('[ab]*', 'beta'));
  assert.ok(!m('[!ab]*', 'beta'));
  assert.ok(m('{deploy,release}-*', 'release-notes'));
  assert.ok(m('a.b+c(d)', 'a.b+c(d)'));
  assert.ok(!m('a.b', 'axb'));
  assert.ok(globToRegExp('*.MD', true).test('x.md'));
  for (const bad of ['', '[abc', '{a,b']) assert.throws(() => globToRegExp(bad), /INVALID|pattern/i);
});
