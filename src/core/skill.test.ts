import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  parseEvidenceUri,
  parseSkillMd,
  skillHead,
  skillNameProblem,
  trustBadge,
  withDescription,
} from './skill.js';

const file = (fm: string, body = '\n# Steps\n') => `---\n${fm}\n---\n${body}`;

test('a valid SKILL.md gives name, description, and the raw head and body', () => {
  const text = file('name: pdf-tools\ndescription: Use when filling PDF forms\nlicense: MIT');
  const d = parseSkillMd(text, 'x/pdf-tools/SKILL.md');
  assert.equal(d.name, 'pdf-tools');
  assert.equal(d.description, 'Use when filling PDF forms');
  assert.equal(d.head + d.body, text);
});

test('names must be kebab-case, 1 to 64 characters', () => {
  for (const ok of ['a', 'pdf', 'fix-flaky-tests', 'v2-api', 'a'.repeat(64)])
    assert.equal(skillNameProblem(ok), null, ok);
  for (const bad of [
    '',
    'Pdf',
    'pdf_tools',
    '-pdf',
    'pdf-',
    'pdf--tools',
    'pdf tools',
    'pdf.tools',
    'é',
    'a'.repeat(65),
  ])
    assert.notEqual(skillNameProblem(bad), null, bad);
});

test('every missing or invalid field is an INVALID_INPUT naming the file', () => {
  const where = 'skills/x/SKILL.md';
  const cases: [string, RegExp][] = [
    [file('description: d'), /no "name:"/],
    [file('name:\ndescription: d'), /no "name:"/],
    [file('name: Bad_Name\ndescription: d'), /not kebab-case/],
    [file(`name: ${'a'.repeat(65)}\ndescription: d`), /65 characters; at most 64/],
    [file('name: [a, b]\ndescription: d'), /"name" must be a single value/],
    [file('name: a'), /no "description:"/],
    [file('name: a\ndescription: ~'), /no "description:"/],
    [file('name: a\ndescription: ""'), /no "description:"/],
    [file('name: a\ndescription: "   "'), /description is empty/],
    [file('name: a\ndescription: [x]'), /one line of text/],
    [file('name: a\ndescription: "two\\nlines"'), /must be one line/],
    [file(`name: a\ndescription: ${'d'.repeat(1025)}`), /1025 characters; at most 1024/],
    ['no front matter at all', /no front matter/],
  ];
  for (const [text, pattern] of cases)
    assert.throws(
      () => parseSkillMd(text, where),
      (e: Error & { code?: string }) =>
        e.code === 'INVALID_INPUT' && e.message.startsWith(where) && pattern.test(e.message),
      pattern.source,
    );
  assert.doesNotThrow(() => parseSkillMd(file(`name: a\ndescription: ${'d'.repeat(1024)}`)));
});

test('skillHead and withDescription write front matter that parses back', () => {
  const head = skillHead('deploy', 'Use when: shipping to prod #1');
  const d = parseSkillMd(`${head}\nbody\n`);
  assert.equal(d.description, 'Use when: shipping to prod #1');
  const changed = withDescription('---\nname: deploy\ndescription: old\nlicense: MIT\n---\n', 'new one');
  assert.equal(changed, '---\nname: deploy\ndescription: new one\nlicense: MIT\n---\n');
});

test('trust badge at each threshold', () => {
  const r = { stage: 'draft' as const, passedChecks: 0, successfulOutcomes: 0, evidence: 0 };
  assert.equal(trustBadge(r), 'Draft');
  assert.equal(trustBadge({ ...r, evidence: 3 }), 'Draft', 'evidence alone does not lift a draft');
  assert.equal(trustBadge({ ...r, stage: 'active' }), 'Draft', 'active without evidence is Draft');
  assert.equal(trustBadge({ ...r, stage: 'active', evidence: 1 }), 'Checked');
  assert.equal(trustBadge({ ...r, passedChecks: 1 }), 'Checked');
  assert.equal(trustBadge({ ...r, successfulOutcomes: 1 }), 'Checked');
  assert.equal(trustBadge({ ...r, passedChecks: 2 }), 'Proven');
  assert.equal(trustBadge({ ...r, successfulOutcomes: 2 }), 'Proven');
  assert.equal(trustBadge({ ...r, passedChecks: 1, successfulOutcomes: 1 }), 'Proven');
  assert.equal(
    trustBadge({ ...r, stage: 'archived', passedChecks: 5 }),
    'Proven',
    'the badge is about trust, not stage',
  );
});

test('evidence links: memories and thread steps; anything else is refused', () => {
  assert.deepEqual(parseEvidenceUri('tapedeck://memory/8d1f'), { kind: 'memory', id: '8d1f' });
  assert.deepEqual(parseEvidenceUri('tapedeck://thread/claude-code:abc-123#7'), {
    kind: 'thread',
    thread: 'claude-code:abc-123',
    step: 7,
  });
  for (const bad of [
    'tapedeck://thread/x',
    'tapedeck://thread/x#-1',
    'https://example.com',
    'tapedeck://memory/',
    'memory/1',
  ])
    assert.throws(() => parseEvidenceUri(bad), /not an evidence link/, bad);
});
