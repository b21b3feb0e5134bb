import assert from 'node:assert/strict';
import { test } from 'node:test';
import { escapeName, formatFsPath, parseFsPath, unescapeName } from './fs-path.js';

const code = (fn: () => unknown) => {
  try {
    fn();
    return 'ok';
  } catch (e) {
    return (e as { code?: string }).code;
  }
};

test('plain paths: absolute, relative to the root, trailing slash, "." components', () => {
  assert.deepEqual(parseFsPath('/'), { segments: [], dirHint: true });
  assert.deepEqual(parseFsPath('/memories/by-id').segments, ['memories', 'by-id']);
  assert.deepEqual(parseFsPath('memories/by-id/').segments, ['memories', 'by-id']);
  assert.equal(parseFsPath('memories/by-id/').dirHint, true);
  assert.deepEqual(parseFsPath('/memories/./by-id').segments, ['memories', 'by-id']);
  assert.deepEqual(parseFsPath('  /wiki/a.md  ').segments, ['wiki', 'a.md']);
});

test('every escape attempt is refused with INVALID_INPUT', () => {
  const attempts = [
    '..',
    '../',
    '/..',
    '/../etc/passwd',
    '/memories/../../etc',
    'memories/..',
    '/wiki/a/../../b',
    '/wiki/..%2F..',
    '/etc/passwd',
    '/home/me/.ssh/id_rsa',
    '/Users/me/notes',
    '/tmp/x',
    '/root',
    '/proc/self/environ',
    '~/notes.md',
    '~',
    'C:\\Windows\\system32',
    'c:/Windows',
    '\\\\server\\share',
    '/wiki\\..\\x',
    'file:///etc/passwd',
    'https://example.com/x',
    '/memories//by-id',
    '//memories',
    '/memories/by-id\u0000.md',
    '/wiki/a\nb.md',
    '/wiki/ a.md',
    '',
    '   ',
    `/${'a'.repeat(1100)}`,
    'tapedeck://other/x',
  ];
  for (const p of attempts)
    assert.equal(
      code(() => parseFsPath(p)),
      'INVALID_INPUT',
      JSON.stringify(p),
    );
  // Not text at all.
  assert.equal(
    code(() => parseFsPath(undefined)),
    'INVALID_INPUT',
  );
  assert.equal(
    code(() => parseFsPath(42)),
    'INVALID_INPUT',
  );
});

test('an escaped ".." is refused; other escapes are names, never a step up', () => {
  // `%2E%2E` is not decoded: it is a plain (missing) name.
  assert.deepEqual(parseFsPath('/wiki/%2E%2E').segments, ['wiki', '%2E%2E']);
  for (const p of ['/wiki/a%2F..', '/wiki/..%2Fx', '/memories/by-label/%2E%2F..%2F'])
    assert.equal(
      code(() => parseFsPath(p)),
      'INVALID_INPUT',
      p,
    );
  assert.deepEqual(parseFsPath('/memories/by-label/ci%2Fcd').segments, ['memories', 'by-label', 'ci/cd']);
});

test('tapedeck:// links map to tree paths', () => {
  assert.deepEqual(parseFsPath('tapedeck://memory/abc').segments, ['memories', 'by-id', 'abc.md']);
  assert.deepEqual(parseFsPath('tapedeck://thread/codex:1#4').segments, ['threads', 'by-id', 'codex:1.md']);
  assert.deepEqual(parseFsPath('tapedeck://fs/wiki/a.md').segments, ['wiki', 'a.md']);
  assert.equal(
    code(() => parseFsPath('tapedeck://fs/../x')),
    'INVALID_INPUT',
  );
});

test('names with / and % round-trip as one component', () => {
  for (const name of ['ci/cd', '100%', 'a%2Fb', 'plain']) {
    assert.equal(unescapeName(escapeName(name)), name);
    assert.deepEqual(parseFsPath(formatFsPath(['memories', 'by-label', name])).segments, [
      'memories',
      'by-label',
      name,
    ]);
  }
  assert.equal(formatFsPath([]), '/');
});
