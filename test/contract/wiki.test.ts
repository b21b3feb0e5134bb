/**
 * Wiki pages on every backend: paths, versions, tombstones, conditional writes, search (ranking,
 * snippets, folders, query edge cases), spaces, and writers racing for one path — through the
 * real wiki service over each backend's store. One scripted sequence must give identical outputs
 * on SQLite and PostgreSQL, search hits included: order, bm25 scores and snippets (PostgreSQL
 * matches, ranks and cuts with FTS5's own rules).
 */
import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import type { BackendKind } from '../../src/ports/stores.js';
import { createSpaceService } from '../../src/services/spaces.js';
import { createWikiService, MAX_WIKI_CONTENT } from '../../src/services/wiki.js';
import { BACKENDS, backendHome, openTestStores } from '../support/backends.js';
import { raceWriters } from './skills-wiki-race.js';

function lab(t: TestContext, kind: BackendKind) {
  const s = openTestStores(kind);
  t.after(s.cleanup);
  const clock = { now: Date.parse('2026-06-01T12:00:00.000Z') };
  const spaces = createSpaceService({});
  const wiki = createWikiService({
    store: s.stores.wiki,
    resolveSpace: ({ space, cwd }) => spaces.resolve({ space, cwd }),
    now: () => (clock.now += 1000),
  });
  return { wiki, clock, stores: s.stores };
}

const codeOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    return (e as { code: string }).code;
  }
  return 'no error';
};

for (const b of BACKENDS) {
  test(`write, read, list under a folder; title from the first heading (${b.name})`, {
    skip: b.skip,
  }, (t) => {
    const { wiki } = lab(t, b.name);
    assert.deepEqual(wiki.write('architecture/payments', '# Payments\n\nWebhooks go through the queue.\n'), {
      path: 'architecture/payments.md',
      title: 'Payments',
      version: 1,
      status: 'created',
      redactions: 0,
    });
    wiki.write('architecture/search.md', 'FTS5 everywhere, no heading');
    wiki.write('architecture-notes.md', '# Not under architecture/');
    wiki.write('runbooks/deploy.md', '# Deploy\n');
    assert.equal(
      wiki.read('architecture/payments.md').content,
      '# Payments\n\nWebhooks go through the queue.\n',
    );
    assert.deepEqual(
      wiki.list('architecture').map((p) => [p.path, p.title]),
      [
        ['architecture/payments.md', 'Payments'],
        ['architecture/search.md', 'search'],
      ],
    );
    assert.deepEqual(
      wiki.list().map((p) => p.path),
      ['architecture-notes.md', 'architecture/payments.md', 'architecture/search.md', 'runbooks/deploy.md'],
      'by path, bytewise (- sorts before /)',
    );
    assert.equal(wiki.list('architecture/').length, 2);
    assert.deepEqual(wiki.list('nothing-here'), []);
  });

  test(`LIKE characters in folders are literal; unicode paths sort bytewise (${b.name})`, {
    skip: b.skip,
  }, (t) => {
    const { wiki } = lab(t, b.name);
    for (const p of ['a_b/one.md', 'axb/two.md', '100%/three.md', '100x/four.md', 'ab/six.md'])
      wiki.write(p, `# ${p}\n`);
    assert.deepEqual(
      wiki.list('a_b').map((p) => p.path),
      ['a_b/one.md'],
    );
    assert.deepEqual(
      wiki.list('100%').map((p) => p.path),
      ['100%/three.md'],
    );
    assert.deepEqual(
      wiki.search('md', { prefix: 'a_b' }).hits.map((h) => h.path),
      ['a_b/one.md'],
    );
    assert.deepEqual(
      wiki.search('md', { prefix: '100%' }).hits.map((h) => h.path),
      ['100%/three.md'],
    );
    assert.equal(wiki.search('md').hits.length, 5);
    wiki.write('Zürich/ßtraße.md', '# Straße\n');
    wiki.write('zebra.md', '# Z\n');
    wiki.write('Zoo.md', '# Zoo\n');
    wiki.write('日本/ページ.md', '# ページ\n');
    const paths = wiki.list().map((p) => p.path);
    assert.deepEqual(
      paths,
      [...paths].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y))),
    );
    assert.equal(wiki.read('Zürich/ßtraße.md').title, 'Straße');
    assert.deepEqual(
      wiki.list('日本').map((p) => p.path),
      ['日本/ページ.md'],
    );
  });

  test(`paths that escape the wiki, empty or oversized pages are refused; nothing is written (${b.name})`, {
    skip: b.skip,
  }, (t) => {
    const { wiki } = lab(t, b.name);
    for (const p of ['../x', 'a/../../x.md', '/etc/passwd', 'C:\\x.md', '', '  ', 'a/'])
      assert.equal(
        codeOf(() => wiki.write(p, '# x')),
        'INVALID_INPUT',
        p,
      );
    assert.equal(
      codeOf(() => wiki.write('ok.md', '   ')),
      'INVALID_INPUT',
    );
    assert.equal(
      codeOf(() => wiki.write('ok.md', 'x'.repeat(MAX_WIKI_CONTENT + 1))),
      'INVALID_INPUT',
    );
    assert.deepEqual(wiki.list(), []);
  });

  test(`every write is a version; removal is a tombstone a write restores (${b.name})`, {
    skip: b.skip,
  }, (t) => {
    const { wiki } = lab(t, b.name);
    wiki.write('glossary.md', '# Glossary\nSKU: stock keeping unit\n');
    assert.equal(wiki.write('glossary.md', '# Glossary\nSKU: stock keeping unit\n').status, 'unchanged');
    const v2 = wiki.write('glossary', '# Glossary\nSKU: stock keeping unit\nPLP: product list page\n');
    assert.deepEqual([v2.status, v2.version], ['updated', 2]);
    assert.equal(wiki.read('glossary.md', { version: 1 }).content, '# Glossary\nSKU: stock keeping unit\n');
    assert.deepEqual(wiki.remove('glossary.md'), { path: 'glossary.md', removed: true, version: 2 });
    assert.equal(
      codeOf(() => wiki.read('glossary.md')),
      'NOT_FOUND',
    );
    assert.equal(
      codeOf(() => wiki.remove('glossary.md')),
      'NOT_FOUND',
    );
    assert.deepEqual(wiki.list(), []);
    assert.equal(wiki.search('stock keeping').hits.length, 0, 'removed pages are not found');
    const old = wiki.read('glossary.md', { version: 2 });
    assert.match(old.content, /PLP/);
    assert.ok(old.removed_at);
    const back = wiki.write('glossary.md', '# Glossary\nSKU: stock keeping unit\n');
    assert.deepEqual([back.status, back.version], ['restored', 3]);
    assert.equal(wiki.search('stock keeping').hits.length, 1, 'a restored page is found again');
    assert.deepEqual(
      wiki.history('glossary.md').versions.map((v) => v.version),
      [1, 2, 3],
    );
    assert.equal(
      codeOf(() => wiki.read('glossary.md', { version: 7 })),
      'NOT_FOUND',
    );
  });

  test(`a conditional write fails with CONFLICT when the page moved on (${b.name})`, {
    skip: b.skip,
  }, (t) => {
    const { wiki } = lab(t, b.name);
    assert.equal(wiki.write('a.md', 'one', { expectedVersion: 0 }).version, 1);
    assert.equal(
      codeOf(() => wiki.write('a.md', 'two', { expectedVersion: 0 })),
      'CONFLICT',
    );
    assert.equal(wiki.write('a.md', 'two', { expectedVersion: 1 }).version, 2);
    assert.throws(() => wiki.write('a.md', 'three', { expectedVersion: 1 }), {
      code: 'CONFLICT',
      message: 'The wiki page a.md is at version 2, not 1; read it again before writing',
    });
    assert.equal(wiki.read('a.md').content, 'two');
  });

  test(`search ranks by text, title and path, under a folder when asked (${b.name})`, {
    skip: b.skip,
  }, (t) => {
    const { wiki } = lab(t, b.name);
    wiki.write(
      'architecture/payments.md',
      '# Payments\n\nStripe webhooks are verified, then queued. Retries use backoff.\n',
    );
    wiki.write(
      'runbooks/stripe-outage.md',
      '# Stripe outage\n\nIf Stripe is down, pause the webhook consumer.\n',
    );
    wiki.write('notes/lunch.md', '# Lunch\n\nTacos on Friday.\n');
    const r = wiki.search('stripe webhook');
    assert.deepEqual(r.hits.map((h) => h.path).sort(), [
      'architecture/payments.md',
      'runbooks/stripe-outage.md',
    ]);
    assert.equal(r.hits[0].path, 'runbooks/stripe-outage.md', 'the title and path name it');
    assert.match(r.hits[0].snippet, /«Stripe»|«webhook/);
    assert.ok(r.hits[0].score > r.hits[1].score && r.hits[1].score > 0);
    assert.deepEqual(
      wiki.search('stripe', { prefix: 'runbooks' }).hits.map((h) => h.path),
      ['runbooks/stripe-outage.md'],
    );
    assert.deepEqual(
      wiki.search('lunch').hits.map((h) => h.path),
      ['notes/lunch.md'],
      'a title or path word',
    );
    assert.deepEqual(wiki.search('kubernetes').hits, []);
    assert.deepEqual(
      wiki.search('stripe -outage').hits.map((h) => h.path),
      ['architecture/payments.md'],
    );
    assert.deepEqual(
      wiki.search('retri*').hits.map((h) => h.path),
      ['architecture/payments.md'],
      'a prefix',
    );
    assert.deepEqual(
      wiki.search('verifying').hits.map((h) => h.path),
      ['architecture/payments.md'],
      'a stem',
    );
    assert.equal(wiki.search('stripe', { limit: 1 }).hits.length, 1);
    assert.equal(
      codeOf(() => wiki.search('')),
      'INVALID_INPUT',
    );
    for (const q of ["a & b | !c <-> 'd':* (", '"open', "\\'", ':*', '-', '«»', '🦛', 'x'.repeat(1999)])
      assert.doesNotThrow(() => wiki.search(q), q);
  });

  test(`snippets mark the words found, with … where text is left out (${b.name})`, { skip: b.skip }, (t) => {
    const { wiki } = lab(t, b.name);
    const filler = (w: string, n: number) => Array.from({ length: n }, (_, i) => `${w}${i}`).join(' ');
    wiki.write('long.md', `${filler('before', 60)} the needle is here ${filler('after', 60)}`);
    wiki.write('short.md', 'A needle.');
    const hits = wiki.search('needle').hits;
    const long = hits.find((h) => h.path === 'long.md')!;
    assert.match(long.snippet, /^….*«needle».*…$/);
    assert.ok(long.snippet.split(/\s+/).length <= 40, long.snippet);
    assert.equal(hits.find((h) => h.path === 'short.md')!.snippet, 'A «needle».');
  });

  test(`a page at the size limit is stored and found by a word at its end (${b.name})`, {
    skip: b.skip,
  }, (t) => {
    const { wiki } = lab(t, b.name);
    const words = Array.from({ length: 60_000 }, (_, i) => `w${i.toString(36)}`).join(' ');
    const content = `${words.slice(0, MAX_WIKI_CONTENT - 20)} zanzibar`;
    assert.ok(content.length <= MAX_WIKI_CONTENT);
    assert.equal(wiki.write('big.md', content).status, 'created');
    assert.equal(wiki.read('big.md').content, content);
    assert.deepEqual(
      wiki.search('zanzibar').hits.map((h) => h.path),
      ['big.md'],
    );
  });

  test(`pages are per space and redacted before storing (${b.name})`, { skip: b.skip }, (t) => {
    const { wiki } = lab(t, b.name);
    wiki.write('ops.md', '# Ops\nDB_PASSWORD=hunter2hunter2\n', { space: 'work' });
    assert.deepEqual(wiki.list(), []);
    assert.equal(
      codeOf(() => wiki.read('ops.md')),
      'NOT_FOUND',
    );
    const page = wiki.read('ops.md', { space: 'work' });
    assert.doesNotMatch(page.content, /hunter2/);
    assert.match(page.content, /\[REDACTED:/);
    assert.equal(wiki.search('ops', { space: 'work' }).hits.length, 1);
    assert.equal(wiki.search('ops').hits.length, 0);
  });

  test(`the engine's wiki service runs on this backend (${b.name})`, { skip: b.skip }, (t) => {
    const h = backendHome(b.name);
    const e = h.engine();
    t.after(() => {
      e.close();
      h.cleanup();
    });
    e.wiki.write('notes/hello.md', '# Hello\nWorld');
    const other = h.engine();
    t.after(() => other.close());
    assert.deepEqual(
      other.wiki.search('world').hits.map((x) => x.path),
      ['notes/hello.md'],
    );
  });

  test(`writers racing to create one page with expectedVersion 0: one wins, the rest CONFLICT (${b.name})`, {
    skip: b.skip,
  }, async (t) => {
    const { results, stores } = await raceWriters(t, b.name, 'wiki-new', 4);
    const won = results.filter((r) => r.ok);
    assert.equal(won.length, 1, JSON.stringify(results));
    assert.equal(won[0].result?.status, 'created');
    for (const r of results.filter((x) => !x.ok)) {
      assert.equal(r.code, 'CONFLICT', JSON.stringify(r));
      assert.match(r.message ?? '', /The wiki page race\.md is at version 1, not 0/);
    }
    const page = stores.wiki.get('default', 'race.md')!;
    assert.equal(stores.wiki.versions(page.id).length, 1);
  });

  test(`writers racing on one page without a condition: every write lands as its own version (${b.name})`, {
    skip: b.skip,
  }, async (t) => {
    const { results, stores } = await raceWriters(t, b.name, 'wiki', 4);
    assert.ok(
      results.every((r) => r.ok),
      JSON.stringify(results),
    );
    assert.deepEqual(results.map((r) => r.result?.version).sort(), [1, 2, 3, 4]);
    assert.deepEqual(results.map((r) => r.result?.status).sort(), [
      'created',
      'updated',
      'updated',
      'updated',
    ]);
    const page = stores.wiki.get('default', 'race.md')!;
    assert.deepEqual(
      stores.wiki.versions(page.id).map((v) => v.version),
      [1, 2, 3, 4],
    );
  });
}

test('one scripted sequence gives the same answers on every backend', (t) => {
  const run = (kind: BackendKind) => {
    const { wiki } = lab(t, kind);
    const out: unknown[] = [];
    const step = (label: string, fn: () => unknown) => {
      try {
        out.push([label, fn()]);
      } catch (e) {
        out.push([label, 'error', (e as { code?: string }).code, (e as Error).message]);
      }
    };
    const search = (q: string, opts = {}) => wiki.search(q, opts).hits;
    step('write', () =>
      wiki.write('architecture/payments', '# Payments\n\nStripe webhooks are verified, then queued.\n'),
    );
    step('write 2', () =>
      wiki.write('runbooks/stripe-outage.md', '# Stripe outage\n\nPause the webhook consumer.\n'),
    );
    step('write 3', () => wiki.write('notes/café.md', '# Café\n\nThe naïve barista knows Stripe.\n'));
    step('write 4', () => wiki.write('notes/100%_done.md', '# Done\n\nAll of it.\n'));
    step('write same', () => wiki.write('notes/café.md', '# Café\n\nThe naïve barista knows Stripe.\n'));
    step('write bad', () => wiki.write('../escape.md', 'x'));
    step('update', () =>
      wiki.write('architecture/payments.md', '# Payments\n\nStripe webhooks are verified.\n'),
    );
    step('conditional', () => wiki.write('architecture/payments.md', 'x', { expectedVersion: 1 }));
    step('list', () => wiki.list());
    step('list notes', () => wiki.list('notes'));
    step('list 100%', () => wiki.list('notes/100%'));
    step('search stripe', () => search('stripe'));
    step('search outage', () => search('outage'));
    step('search cafe', () => search('cafe'));
    step('search naive', () => search('naïve'));
    step('search prefix', () => search('webho*', { prefix: 'runbooks' }));
    step('search none', () => search('kubernetes'));
    step('search syntax', () => search("'a' & | !b:* <->"));
    step('write deploy', () =>
      wiki.write('ops/deploy.md', '# Deployment\n\nThe Deployment waits for handle_webhook to drain.\n'),
    );
    step('write deploys', () =>
      wiki.write(
        'ops/history.md',
        `# History\n\n${Array.from({ length: 40 }, (_, i) => `Step ${i}: nothing.`).join(' ')} Two deployments failed: handleWebhook.ts threw in src/payments/webhook.ts. ${'Later notes. '.repeat(20)}`,
      ),
    );
    step('write accents', () =>
      wiki.write('notes/résumé.md', '# Résumé\n\nCrème brûlée at the Ñandú café; naïve RÉSUMÉ.\n'),
    );
    for (const q of [
      'deployments',
      'Deployment',
      'deploy*',
      'handle',
      'handle_webhook',
      'handleWebhook',
      'webhook.ts',
      'src/payments/webhook.ts',
      'resume',
      'RÉSUMÉ creme',
      'nandu',
      '"creme brulee"',
      'deployment -history',
      'deployment webhook nothing',
      'step nothing',
    ])
      step(`search ${q}`, () => search(q));
    step('search limit', () => search('nothing step', { limit: 1 }));
    step('remove', () => wiki.remove('runbooks/stripe-outage.md'));
    step('search after remove', () => search('outage'));
    step('read removed', () => wiki.read('runbooks/stripe-outage.md'));
    step('read removed v1', () => wiki.read('runbooks/stripe-outage.md', { version: 1 }));
    step('restore', () => wiki.write('runbooks/stripe-outage.md', '# Stripe outage v2\n'));
    step('history', () => wiki.history('runbooks/stripe-outage.md'));
    step('history payments', () => wiki.history('architecture/payments.md'));
    step('read', () => wiki.read('architecture/payments.md'));
    step('read v1', () => wiki.read('architecture/payments.md', { version: 1 }));
    step('other space', () => wiki.write('ops.md', '# Ops\n', { space: 'work' }));
    step('list work', () => wiki.list('', { space: 'work' }));
    step('final', () => wiki.list());
    return out;
  };
  const results = BACKENDS.filter((b) => !b.skip).map((b) => run(b.name));
  for (const r of results.slice(1)) assert.deepEqual(r, results[0]);
});
