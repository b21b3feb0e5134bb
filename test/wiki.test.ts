/** Wiki pages through the engine: paths, versions, tombstones, search, spaces. */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type { Engine } from '../src/app/engine.js';
import { tempHome } from './support/home.js';

function setup(): Engine {
  const h = tempHome();
  const e = h.engine();
  after(() => {
    e.close();
    h.cleanup();
  });
  return e;
}

const codeOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    return (e as { code: string }).code;
  }
  return 'no error';
};

test('write, read, list under a folder; title from the first heading', () => {
  const e = setup();
  const w = e.wiki.write('architecture/payments', '# Payments\n\nWebhooks go through the queue.\n');
  assert.deepEqual(w, {
    path: 'architecture/payments.md',
    title: 'Payments',
    version: 1,
    status: 'created',
    redactions: 0,
  });
  e.wiki.write('architecture/search.md', 'FTS5 everywhere, no heading');
  e.wiki.write('architecture-notes.md', '# Not under architecture/');
  e.wiki.write('runbooks/deploy.md', '# Deploy\n');
  const page = e.wiki.read('architecture/payments.md');
  assert.equal(page.content, '# Payments\n\nWebhooks go through the queue.\n');
  assert.equal(page.title, 'Payments');
  assert.deepEqual(
    e.wiki.list('architecture').map((p) => [p.path, p.title]),
    [
      ['architecture/payments.md', 'Payments'],
      ['architecture/search.md', 'search'],
    ],
  );
  assert.equal(e.wiki.list().length, 4);
  assert.equal(e.wiki.list('architecture/').length, 2);
  assert.deepEqual(e.wiki.list('nothing-here'), []);
});

test('paths that escape the wiki, are absolute or empty are refused and nothing is written', () => {
  const e = setup();
  for (const p of ['../x', 'a/../../x.md', '/etc/passwd', 'C:\\x.md', '', '  ', 'a/'])
    assert.equal(
      codeOf(() => e.wiki.write(p, '# x')),
      'INVALID_INPUT',
      p,
    );
  for (const p of ['../x', '/abs']) {
    assert.equal(
      codeOf(() => e.wiki.read(p)),
      'INVALID_INPUT',
      p,
    );
    assert.equal(
      codeOf(() => e.wiki.remove(p)),
      'INVALID_INPUT',
      p,
    );
  }
  assert.equal(
    codeOf(() => e.wiki.list('../')),
    'INVALID_INPUT',
  );
  assert.equal(
    codeOf(() => e.wiki.write('ok.md', '   ')),
    'INVALID_INPUT',
    'empty content',
  );
  assert.equal(
    codeOf(() => e.wiki.write('ok.md', 'x'.repeat(600_000))),
    'INVALID_INPUT',
    'oversized content',
  );
  assert.deepEqual(e.wiki.list(), []);
});

test('every write is a version; the same text is not; removal is a tombstone a write restores', () => {
  const e = setup();
  e.wiki.write('glossary.md', '# Glossary\nSKU: stock keeping unit\n');
  assert.equal(e.wiki.write('glossary.md', '# Glossary\nSKU: stock keeping unit\n').status, 'unchanged');
  const v2 = e.wiki.write('glossary', '# Glossary\nSKU: stock keeping unit\nPLP: product list page\n');
  assert.deepEqual([v2.status, v2.version], ['updated', 2]);
  assert.equal(e.wiki.read('glossary.md', { version: 1 }).content, '# Glossary\nSKU: stock keeping unit\n');

  assert.deepEqual(e.wiki.remove('glossary.md'), { path: 'glossary.md', removed: true, version: 2 });
  assert.equal(
    codeOf(() => e.wiki.read('glossary.md')),
    'NOT_FOUND',
  );
  assert.equal(
    codeOf(() => e.wiki.remove('glossary.md')),
    'NOT_FOUND',
  );
  assert.deepEqual(e.wiki.list(), []);
  assert.equal(e.wiki.search('stock keeping').hits.length, 0, 'removed pages are not found');
  const old = e.wiki.read('glossary.md', { version: 2 });
  assert.match(old.content, /PLP/);
  assert.ok(old.removed_at, 'old versions of a removed page stay readable');

  const back = e.wiki.write('glossary.md', '# Glossary\nSKU: stock keeping unit\n');
  assert.deepEqual([back.status, back.version], ['restored', 3]);
  assert.deepEqual(
    e.wiki.history('glossary.md').versions.map((v) => v.version),
    [1, 2, 3],
  );
  assert.equal(
    codeOf(() => e.wiki.read('glossary.md', { version: 7 })),
    'NOT_FOUND',
  );
});

test('a conditional write fails with CONFLICT when the page moved on', () => {
  const e = setup();
  assert.equal(e.wiki.write('a.md', 'one', { expectedVersion: 0 }).version, 1);
  assert.equal(
    codeOf(() => e.wiki.write('a.md', 'two', { expectedVersion: 0 })),
    'CONFLICT',
  );
  assert.equal(e.wiki.write('a.md', 'two', { expectedVersion: 1 }).version, 2);
  assert.equal(
    codeOf(() => e.wiki.write('a.md', 'three', { expectedVersion: 1 })),
    'CONFLICT',
  );
  assert.equal(e.wiki.read('a.md').content, 'two');
});

test('search ranks pages by their text, title and path, under a folder when asked', () => {
  const e = setup();
  e.wiki.write(
    'architecture/payments.md',
    '# Payments\n\nStripe webhooks are verified, then queued. Retries use backoff.\n',
  );
  e.wiki.write(
    'runbooks/stripe-outage.md',
    '# Stripe outage\n\nIf Stripe is down, pause the webhook consumer.\n',
  );
  e.wiki.write('notes/lunch.md', '# Lunch\n\nTacos on Friday.\n');
  const r = e.wiki.search('stripe webhook');
  assert.deepEqual(r.hits.map((h) => h.path).sort(), [
    'architecture/payments.md',
    'runbooks/stripe-outage.md',
  ]);
  assert.match(r.hits[0].snippet, /«Stripe»|«webhook/);
  assert.deepEqual(
    e.wiki.search('stripe', { prefix: 'runbooks' }).hits.map((h) => h.path),
    ['runbooks/stripe-outage.md'],
  );
  assert.deepEqual(e.wiki.search('kubernetes').hits, []);
  assert.equal(
    codeOf(() => e.wiki.search('')),
    'INVALID_INPUT',
  );
});

test('pages are per space and redacted before storing', () => {
  const e = setup();
  e.wiki.write('ops.md', '# Ops\nDB_PASSWORD=hunter2hunter2\n', { space: 'work' });
  assert.deepEqual(e.wiki.list(), []);
  assert.equal(
    codeOf(() => e.wiki.read('ops.md')),
    'NOT_FOUND',
  );
  const page = e.wiki.read('ops.md', { space: 'work' });
  assert.doesNotMatch(page.content, /hunter2/);
  assert.match(page.content, /\[REDACTED:/);
  assert.equal(e.wiki.search('ops', { space: 'work' }).hits.length, 1);
});
