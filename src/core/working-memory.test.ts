import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isTapedeckError } from './errors.js';
import {
  itemsOfText,
  oneLine,
  parseSections,
  renderGenerated,
  renderItem,
  sectionOf,
} from './working-memory.js';

test('a section is named by its id or its heading, in any case; unknown names list the known ones', () => {
  assert.equal(sectionOf('open-loops'), 'open-loops');
  assert.equal(sectionOf('Open loops'), 'open-loops');
  assert.equal(sectionOf('RECENT DECISIONS'), 'decisions');
  assert.equal(sectionOf('sessions'), 'sessions');
  assert.equal(sectionOf('Recent sessions (edited)'), 'sessions');
  assert.throws(
    () => sectionOf('todo'),
    (e) => isTapedeckError(e) && e.code === 'INVALID_INPUT' && /focus \(Focus\)/.test(e.message),
  );
});

test('an edited briefing is read back by heading; the title, fences and the (edited) mark are handled', () => {
  const md = [
    '# Working memory · 2026-11-20 · space default',
    '',
    '## Focus',
    '- shop',
    '',
    '## Open loops (edited)',
    '- call Ana',
    '```',
    '## not a heading inside a fence',
    '```',
  ].join('\n');
  const s = parseSections(md);
  assert.deepEqual([...s.keys()], ['focus', 'open-loops']);
  assert.equal(s.get('focus'), '- shop');
  assert.equal(s.get('open-loops'), '- call Ana\n```\n## not a heading inside a fence\n```');
  assert.throws(() => parseSections('## Focus\na\n## Focus\nb'), /appears twice/);
  assert.throws(() => parseSections('## Todos\n- x'), /Unknown working-memory section "Todos"/);
  assert.throws(() => parseSections('just text'), /No section found/);
});

test("a person's text becomes one item per top-level line, with its first tapedeck:// link", () => {
  const items = itemsOfText(
    '- call Ana about <tapedeck://memory/abc>\n  details here\n\n- ship it\nplain line',
  );
  assert.deepEqual(
    items.map((i) => [i.text, i.link]),
    [
      ['call Ana about <tapedeck://memory/abc>\n  details here', 'tapedeck://memory/abc'],
      ['ship it', null],
      ['plain line', null],
    ],
  );
});

test('items render as list lines with autolinks; an empty section says so', () => {
  assert.equal(
    renderItem({ text: 'Use cents', link: 'tapedeck://thread/codex:1#4', source: 'session', at: null }),
    '- Use cents <tapedeck://thread/codex:1#4>',
  );
  assert.equal(renderGenerated('open-loops', []), '- none');
  assert.equal(oneLine('a  b\n c', 10), 'a b c');
  assert.equal(oneLine('alpha beta gamma delta', 12), 'alpha beta…');
});
