import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TapedeckError } from './errors.js';
import { parseFrontMatter, parseScalar, replaceHeadScalar, yamlScalar } from './front-matter.js';

const doc = (fm: string, body = '\n# Body\n') => `---\n${fm}\n---\n${body}`;

function rejects(text: string, pattern: RegExp, where = 'skills/x/SKILL.md'): void {
  assert.throws(
    () => parseFrontMatter(text, where),
    (e: unknown) => {
      assert.ok(e instanceof TapedeckError, String(e));
      assert.equal(e.code, 'INVALID_INPUT');
      assert.ok(e.message.startsWith(where), `names the file: ${e.message}`);
      assert.match(e.message, pattern);
      return true;
    },
  );
}

test('splits head and body exactly, so head + body is the original text', () => {
  const text = doc('name: a\ndescription: b', '\n# Title\n\ntext\n');
  const fm = parseFrontMatter(text);
  assert.equal(fm.head, '---\nname: a\ndescription: b\n---\n');
  assert.equal(fm.body, '\n# Title\n\ntext\n');
  assert.equal(fm.head + fm.body, text);
  assert.deepEqual(fm.fields, { name: 'a', description: 'b' });
});

test('keeps CRLF line endings, a BOM, and a file that ends at the closing fence', () => {
  const crlf = '---\r\nname: a\r\ndescription: b\r\n---\r\nbody\r\n';
  const fm = parseFrontMatter(crlf);
  assert.deepEqual(fm.fields, { name: 'a', description: 'b' });
  assert.equal(fm.head + fm.body, crlf);
  assert.equal(fm.body, 'body\r\n');
  const bom = `\uFEFF${doc('name: a\ndescription: b')}`;
  assert.equal(parseFrontMatter(bom).head.startsWith('\uFEFF---'), true);
  const bare = '---\nname: a\ndescription: b\n---';
  assert.equal(parseFrontMatter(bare).body, '');
});

test('reads quoted strings, comments, lists and one-level maps', () => {
  const fm = parseFrontMatter(
    doc(
      [
        '# a comment',
        'name: "pdf-tools"   # trailing comment',
        "description: 'It''s for PDFs: forms, text'",
        'plain: Use for C# projects # not part of the value',
        'escaped: "tab\\there \\"q\\" \\u00e9"',
        'tags: [docs, "a, b", \'c\']',
        'empty:',
        'allowed-tools:',
        '  - Read',
        '  - "Bash(git:*)"',
        'metadata:',
        '  author: someone',
        '  version: "1.0"',
        '',
      ].join('\n'),
    ),
  );
  assert.deepEqual(fm.fields, {
    name: 'pdf-tools',
    description: "It's for PDFs: forms, text",
    plain: 'Use for C# projects',
    escaped: 'tab\there "q" é',
    tags: ['docs', 'a, b', 'c'],
    empty: '',
    'allowed-tools': ['Read', 'Bash(git:*)'],
    metadata: { author: 'someone', version: '1.0' },
  });
});

test('rejects a file without front matter, naming the file', () => {
  rejects('# Just markdown\n', /no front matter/);
  rejects('', /no front matter/);
  rejects('\n---\nname: a\n---\n', /no front matter/);
  rejects('--- \nname: a\n', /not closed/);
  rejects('---\nname: a\ndescription: b\n', /not closed/);
});

test('rejects every malformed line with its line number', () => {
  rejects(doc('name: a\njust words'), /line 3: expected "key: value"/);
  rejects(doc('name: a\nname: b'), /line 3: duplicate key "name"/);
  rejects(doc('name:a'), /line 2: expected "key: value"/);
  rejects(doc('tags:\n\t- a'), /tabs are not allowed/);
  rejects(doc('name: a\n  indented: x'), /line 3: unexpected indentation/);
  rejects(doc('description: |\n  multi'), /block scalars/);
  rejects(doc('description: >'), /block scalars/);
  rejects(doc('description: Use when: deploying'), /contains ": "; put it in quotes/);
  rejects(doc('description: "unterminated'), /unterminated double-quoted/);
  rejects(doc("description: 'unterminated"), /unterminated single-quoted/);
  rejects(doc('description: "bad \\q escape"'), /unsupported escape/);
  rejects(doc('description: "quoted" and more'), /unexpected text after the closing quote/);
  rejects(doc('description: @handle'), /must be quoted/);
  rejects(doc('description: *alias'), /must be quoted/);
  rejects(doc('description: {a: 1}'), /not supported/);
  rejects(doc('tags: [a, [b]]'), /nested/);
  rejects(doc('tags: [a, b'), /unterminated inline list/);
  rejects(doc('tags: [a,]'), /trailing ","/);
  rejects(doc('tags:\n  - a: 1'), /lists of maps are not supported/);
  rejects(doc('tags:\n  - a\n  b: c'), /mixes list items and keys/);
  rejects(doc('meta:\n  a: 1\n  - b'), /mixes list items and keys/);
  rejects(doc('meta:\n  a: 1\n    b: 2'), /inconsistent indentation/);
  rejects(doc('meta:\n  a:\n    b: 2'), /nested structures are not supported/);
  rejects(doc('meta:\n  a: 1\n  a: 2'), /duplicate key "meta.a"/);
  rejects(doc('name: - a'), /list item cannot follow/);
});

test('yamlScalar writes values that read back unchanged', () => {
  const values = [
    'Use when writing release notes',
    'Use when: deploying',
    'Fix issue #12 quickly',
    'trailing space ',
    ' leading',
    '"quoted"',
    "it's",
    'true',
    'null',
    '123',
    '1.5e3',
    '- dash first',
    '@mention',
    'back\\slash',
    'ünïcode ok',
    '[bracket]',
    'ends with colon:',
    '',
  ];
  for (const v of values) {
    const written = yamlScalar(v);
    assert.equal(parseScalar(written), v, `${JSON.stringify(v)} → ${written}`);
  }
  assert.equal(
    yamlScalar('Use when writing release notes'),
    'Use when writing release notes',
    'plain when safe',
  );
  assert.equal(yamlScalar('true'), '"true"', 'YAML keywords stay strings');
});

test('replaceHeadScalar rewrites one line and keeps every other byte', () => {
  const head = '---\r\nname: a\r\ndescription: old\r\nlicense: MIT\r\n---\r\n';
  const out = replaceHeadScalar(head, 'description', 'new: value');
  assert.equal(out, '---\r\nname: a\r\ndescription: "new: value"\r\nlicense: MIT\r\n---\r\n');
  const added = replaceHeadScalar('---\nname: a\n---\n', 'description', 'x');
  assert.equal(added, '---\nname: a\ndescription: x\n---\n');
  assert.deepEqual(parseFrontMatter(`${out}body`).fields.description, 'new: value');
});
