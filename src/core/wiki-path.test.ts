import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normalizeWikiPath, normalizeWikiPrefix, wikiTitle } from './wiki-path.js';

test('paths are normalized: slashes collapsed, ./ dropped, .md added', () => {
  assert.equal(normalizeWikiPath('architecture/payments.md'), 'architecture/payments.md');
  assert.equal(normalizeWikiPath('  architecture//payments  '), 'architecture/payments.md');
  assert.equal(normalizeWikiPath('./notes/./today.MD'), 'notes/today.MD');
  assert.equal(normalizeWikiPath('glossary'), 'glossary.md');
});

test('paths that escape the wiki, are absolute, empty or odd are refused', () => {
  const bad: [string, RegExp][] = [
    ['', /empty/],
    ['   ', /empty/],
    ['../x', /leaves the wiki/],
    ['a/../../etc/passwd', /leaves the wiki/],
    ['a/..', /leaves the wiki/],
    ['/etc/passwd', /absolute/],
    ['~/notes.md', /absolute/],
    ['C:\\notes.md', /absolute/],
    ['c:/notes.md', /absolute/],
    ['a\\b.md', /backslash/],
    ['a/\u0000b.md', /control characters/],
    ['a/b/', /is a folder/],
    ['.', /names no page/],
    ['a/ b .md', /surrounding spaces/],
    [`${'x'.repeat(198)}`, /at most 200/],
  ];
  for (const [p, re] of bad)
    assert.throws(
      () => normalizeWikiPath(p),
      (e: Error & { code?: string }) => e.code === 'INVALID_INPUT' && re.test(e.message),
      p,
    );
});

test('folder prefixes: empty means everything; escapes refused', () => {
  assert.equal(normalizeWikiPrefix(undefined), '');
  assert.equal(normalizeWikiPrefix('/'), '');
  assert.equal(normalizeWikiPrefix('architecture/'), 'architecture');
  assert.throws(() => normalizeWikiPrefix('../x'), /leaves the wiki/);
  assert.throws(() => normalizeWikiPrefix('/abs'), /absolute/);
});

test('the title is the first heading outside code fences, else the file name', () => {
  assert.equal(wikiTitle('a/b.md', 'intro\n## Payments  flow ##\n# Later'), 'Payments flow');
  assert.equal(wikiTitle('a/b.md', '```\n# not a title\n```\n# Real'), 'Real');
  assert.equal(wikiTitle('a/runbook.md', 'no heading here'), 'runbook');
});
