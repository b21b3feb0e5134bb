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

const codeOf = async (fn: () => unknown): Promise<string> => {
  try {
    await fn();
  } catch (e) {
    return (e as { code: string }).code;
  }
  return 'no error';
};

for (const b of BACKENDS) {
  test(`write, read, list under a folder; title from the first heading (${b.name})`, {
    skip: b.skip,
  }, async (t) => {
    const { wiki } = lab(t, b.name);
    assert.deepEqual(
      await wiki.write('architecture/payments', '# Payments\n\nWebhooks go through the queue.\n'),
      {
        path: 'architecture/payments.md',
        title: 'Payments',
        version: 1,
        status: 'created',
        redactions: 0,
      },
    );
    await wiki.write('architecture/search.md', 'FTS5 everywhere, no heading');
    await wiki.write('architecture-notes.md', '# Not under architecture/');
    await wiki.write('runbooks/deploy.md', '# Deploy\n');
    assert.equal(
      (await wiki.read('architecture/payments.md')).content,
      '# Payments\n\nWebhooks go through the queue.\n',
    );
    assert.deepEqual(
      (await wiki.list('architecture')).map((p) => [p.path, p.title]),
      [
        ['architecture/payments.md', 'Payments'],
        ['architecture/search.md', 'search'],
      ],
    );
    assert.deepEqual(
      (await wiki.list()).map((p) => p.path),
      ['architecture-notes.md', 'architecture/payments.md', 'architecture/search.md', 'runbooks/deploy.md'],
      'by path, bytewise (- sorts before /)',
    );
    assert.equal((await wiki.list('architecture/')).length, 2);
    assert.deepEqual(await wiki.list('nothing-here'), []);
  });

  test(`LIKE characters in folders are literal; unicode paths sort bytewise (${b.name})`, {
    skip: b.skip,
  }, async (t) => {
    const { wiki } = lab(t, b.name);
    for (const p of ['a_b/one.md', 'axb/two.md', '100%/three.md', '100x/four.md', 'ab/six.md'])
      await wiki.write(p, `# ${p}\n`);
    assert.deepEqual(
      (await wiki.list('a_b')).map((p) => p.path),
      ['a_b/one.md'],
    );
    assert.deepEqual(
      (await wiki.list('100%')).map((p) => p.path),
      ['100%/three.md'],
    );
    assert.deepEqual(
      (await wiki.search('md', { prefix: 'a_b' })).hits.map((h) => h.path),
      ['a_b/one.md'],
    );
    assert.deepEqual(
      (await wiki.search('md', { prefix: '100%' })).hits.map((h) => h.path),
      ['100%/three.md'],
    );
    assert.equal((await wiki.search('md')).hits.length, 5);
    await wiki.write('Zürich/ßtraße.md', '# Straße\n');
    await wiki.write('zebra.md', '# Z\n');
    await wiki.write('Zoo.md', '# Zoo\n');
    await wiki.write('日本/ページ.md', '# ページ\n');
    const paths = (await wiki.list()).map((p) => p.path);
    assert.deepEqual(
      paths,
      [...paths].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y))),
    );
    assert.equal((await wiki.read('Zürich/ßtraße.md')).title, 'Straße');
    assert.deepEqual(
      (await wiki.list('日本')).map((p) => p.path),
      ['日本/ページ.md'],
    );
  });

  test(`paths that escape the wiki, empty or oversized pages are refused; nothing is written (${b.name})`, {
    skip: b.skip,
  }, async (t) => {
    const { wiki } = lab(t, b.name);
    for (const p of ['../x', 'a/../../x.md', '/etc/passwd', 'C:\\x.md', '', '  ', 'a/'])
      assert.equal(await codeOf(() => wiki.write(p, '# x')), 'INVALID_INPUT', p);
    for (const p of ['../x', '/abs']) {
      assert.equal(await codeOf(() => wiki.read(p)), 'INVALID_INPUT', p);
      assert.equal(await codeOf(() => wiki.remove(p)), 'INVALID_INPUT', p);
    }
    assert.equal(await codeOf(() => wiki.list('../')), 'INVALID_INPUT');
    assert.equal(await codeOf(() => wiki.write('ok.md', '   ')), 'INVALID_INPUT');
    assert.equal(await codeOf(() => wiki.write('ok.md', 'x'.repeat(MAX_WIKI_CONTENT + 1))), 'INVALID_INPUT');
    assert.deepEqual(await wiki.list(), []);
  });

  test(`text the engine cannot hold is a clear INVALID_INPUT, nothing written; a unique clash is CONFLICT (${b.name})`, {
    skip: b.skip,
  }, async (t) => {
    const { wiki, stores } = lab(t, b.name);
    // SQLite keeps a NUL character; PostgreSQL text cannot hold one (mapped by the pool, as before).
    const nul = await codeOf(() => wiki.write('nul.md', '# Nul\nbefore\u0000after'));
    assert.equal(nul, b.name === 'postgres' ? 'INVALID_INPUT' : 'no error');
    assert.equal((await wiki.list()).length, b.name === 'postgres' ? 0 : 1);
    // A second insert of one (space, path): the store's own CONFLICT, the transaction undone.
    const row = { space: 'default', path: 'dup.md', title: 'Dup', content: 'x', version: 1 };
    const at = {
      createdAt: '2026-06-01T00:00:00.000Z',
      updatedAt: '2026-06-01T00:00:00.000Z',
      deletedAt: null,
    };
    await stores.wiki.write((w) => w.insertPage({ ...row, ...at }));
    await assert.rejects(
      stores.wiki.write(async (w) => {
        await w.insertVersion((await w.get('default', 'dup.md'))!.id, {
          version: 2,
          title: 'Dup',
          content: 'y',
          createdAt: at.createdAt,
        });
        return w.insertPage({ ...row, ...at });
      }),
      { code: 'CONFLICT', message: /The wiki page dup\.md was just created by another writer/ },
    );
    const page = (await stores.wiki.get('default', 'dup.md'))!;
    assert.deepEqual(
      await stores.wiki.versions(page.id),
      [],
      'the version written before the clash is undone',
    );
  });

  test(`every write is a version; removal is a tombstone a write restores (${b.name})`, {
    skip: b.skip,
  }, async (t) => {
    const { wiki } = lab(t, b.name);
    await wiki.write('glossary.md', '# Glossary\nSKU: stock keeping unit\n');
    assert.equal(
      (await wiki.write('glossary.md', '# Glossary\nSKU: stock keeping unit\n')).status,
      'unchanged',
    );
    const v2 = await wiki.write('glossary', '# Glossary\nSKU: stock keeping unit\nPLP: product list page\n');
    assert.deepEqual([v2.status, v2.version], ['updated', 2]);
    assert.equal(
      (await wiki.read('glossary.md', { version: 1 })).content,
      '# Glossary\nSKU: stock keeping unit\n',
    );
    assert.deepEqual(await wiki.remove('glossary.md'), { path: 'glossary.md', removed: true, version: 2 });
    assert.equal(await codeOf(() => wiki.read('glossary.md')), 'NOT_FOUND');
    assert.equal(await codeOf(() => wiki.remove('glossary.md')), 'NOT_FOUND');
    assert.deepEqual(await wiki.list(), []);
    assert.equal((await wiki.search('stock keeping')).hits.length, 0, 'removed pages are not found');
    const old = await wiki.read('glossary.md', { version: 2 });
    assert.match(old.content, /PLP/);
    assert.ok(old.removed_at);
    const back = await wiki.write('glossary.md', '# Glossary\nSKU: stock keeping unit\n');
    assert.deepEqual([back.status, back.version], ['restored', 3]);
    assert.equal((await wiki.search('stock keeping')).hits.length, 1, 'a restored page is found again');
    assert.deepEqual(
      (await wiki.history('glossary.md')).versions.map((v) => v.version),
      [1, 2, 3],
    );
    assert.equal(await codeOf(() => wiki.read('glossary.md', { version: 7 })), 'NOT_FOUND');
  });

  test(`a conditional write fails with CONFLICT when the page moved on (${b.name})`, {
    skip: b.skip,
  }, async (t) => {
    const { wiki } = lab(t, b.name);
    assert.equal((await wiki.write('a.md', 'one', { expectedVersion: 0 })).version, 1);
    assert.equal(await codeOf(() => wiki.write('a.md', 'two', { expectedVersion: 0 })), 'CONFLICT');
    assert.equal((await wiki.write('a.md', 'two', { expectedVersion: 1 })).version, 2);
    await assert.rejects(() => wiki.write('a.md', 'three', { expectedVersion: 1 }), {
      code: 'CONFLICT',
      message: 'The wiki page a.md is at version 2, not 1; read it again before writing',
    });
    assert.equal((await wiki.read('a.md')).content, 'two');
  });

  test(`search ranks by text, title and path, under a folder when asked (${b.name})`, {
    skip: b.skip,
  }, async (t) => {
    const { wiki } = lab(t, b.name);
    await wiki.write(
      'architecture/payments.md',
      '# Payments\n\nStripe webhooks are verified, then queued. Retries use backoff.\n',
    );
    await wiki.write(
      'runbooks/stripe-outage.md',
      '# Stripe outage\n\nIf Stripe is down, pause the webhook consumer.\n',
    );
    await wiki.write('notes/lunch.md', '# Lunch\n\nTacos on Friday.\n');
    const r = await wiki.search('stripe webhook');
    assert.deepEqual(r.hits.map((h) => h.path).sort(), [
      'architecture/payments.md',
      'runbooks/stripe-outage.md',
    ]);
    assert.equal(r.hits[0].path, 'runbooks/stripe-outage.md', 'the title and path name it');
    assert.match(r.hits[0].snippet, /«Stripe»|«webhook/);
    assert.ok(r.hits[0].score > r.hits[1].score && r.hits[1].score > 0);
    assert.deepEqual(
      (await wiki.search('stripe', { prefix: 'runbooks' })).hits.map((h) => h.path),
      ['runbooks/stripe-outage.md'],
    );
    assert.deepEqual(
      (await wiki.search('lunch')).hits.map((h) => h.path),
      ['notes/lunch.md'],
      'a title or path word',
    );
    assert.deepEqual((await wiki.search('kubernetes')).hits, []);
    assert.deepEqual(
      (await wiki.search('stripe -outage')).hits.map((h) => h.path),
      ['architecture/payments.md'],
    );
    assert.deepEqual(
      (await wiki.search('retri*')).hits.map((h) => h.path),
      ['architecture/payments.md'],
      'a prefix',
    );
    assert.deepEqual(
      (await wiki.search('verifying')).hits.map((h) => h.path),
      ['architecture/payments.md'],
      'a stem',
    );
    assert.equal((await wiki.search('stripe', { limit: 1 })).hits.length, 1);
    assert.equal(await codeOf(() => wiki.search('')), 'INVALID_INPUT');
    for (const q of ["a & b | !c <-> 'd':* (", '"open', "\\'", ':*', '-', '«»', '🦛', 'x'.repeat(1999)])
      await assert.doesNotReject(() => wiki.search(q), q);
  });

  test(`snippets mark the words found, with … where text is left out (${b.name})`, {
    skip: b.skip,
  }, async (t) => {
    const { wiki } = lab(t, b.name);
    const filler = (w: string, n: number) => Array.from({ length: n }, (_, i) => `${w}${i}`).join(' ');
    await wiki.write('long.md', `${filler('before', 60)} the needle is here ${filler('after', 60)}`);
    await wiki.write('short.md', 'A needle.');
    const hits = (await wiki.search('needle')).hits;
    const long = hits.find((h) => h.path === 'long.md')!;
    assert.match(long.snippet, /^….*«needle».*…$/);
    assert.ok(long.snippet.split(/\s+/).length <= 40, long.snippet);
    assert.equal(hits.find((h) => h.path === 'short.md')!.snippet, 'A «needle».');
  });

  test(`a page at the size limit is stored and found by a word at its end (${b.name})`, {
    skip: b.skip,
  }, async (t) => {
    const { wiki } = lab(t, b.name);
    const words = Array.from({ length: 60_000 }, (_, i) => `w${i.toString(36)}`).join(' ');
    const content = `${words.slice(0, MAX_WIKI_CONTENT - 20)} zanzibar`;
    assert.ok(content.length <= MAX_WIKI_CONTENT);
    assert.equal((await wiki.write('big.md', content)).status, 'created');
    assert.equal((await wiki.read('big.md')).content, content);
    assert.deepEqual(
      (await wiki.search('zanzibar')).hits.map((h) => h.path),
      ['big.md'],
    );
  });

  test(`pages are per space and redacted before storing (${b.name})`, { skip: b.skip }, async (t) => {
    const { wiki } = lab(t, b.name);
    await wiki.write('ops.md', '# Ops\nDB_PASSWORD=hunter2hunter2\n', { space: 'work' });
    assert.deepEqual(await wiki.list(), []);
    assert.equal(await codeOf(() => wiki.read('ops.md')), 'NOT_FOUND');
    const page = await wiki.read('ops.md', { space: 'work' });
    assert.doesNotMatch(page.content, /hunter2/);
    assert.match(page.content, /\[REDACTED:/);
    assert.equal((await wiki.search('ops', { space: 'work' })).hits.length, 1);
    assert.equal((await wiki.search('ops')).hits.length, 0);
  });

  test(`the engine's wiki service runs on this backend (${b.name})`, { skip: b.skip }, async (t) => {
    const h = backendHome(b.name);
    const e = h.engine();
    t.after(() => {
      e.close();
      h.cleanup();
    });
    await e.wiki.write('notes/hello.md', '# Hello\nWorld');
    const other = h.engine();
    t.after(() => other.close());
    assert.deepEqual(
      (await other.wiki.search('world')).hits.map((x) => x.path),
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
    const page = (await stores.wiki.get('default', 'race.md'))!;
    assert.equal((await stores.wiki.versions(page.id)).length, 1);
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
    const page = (await stores.wiki.get('default', 'race.md'))!;
    assert.deepEqual(
      (await stores.wiki.versions(page.id)).map((v) => v.version),
      [1, 2, 3, 4],
    );
  });
}

test('one scripted sequence gives the same answers on every backend', async (t) => {
  const run = async (kind: BackendKind) => {
    const { wiki } = lab(t, kind);
    const out: unknown[] = [];
    const step = async (label: string, fn: () => unknown) => {
      try {
        out.push([label, await fn()]);
      } catch (e) {
        out.push([label, 'error', (e as { code?: string }).code, (e as Error).message]);
      }
    };
    const search = async (q: string, opts = {}) => (await wiki.search(q, opts)).hits;
    await step('write', () =>
      wiki.write('architecture/payments', '# Payments\n\nStripe webhooks are verified, then queued.\n'),
    );
    await step('write 2', () =>
      wiki.write('runbooks/stripe-outage.md', '# Stripe outage\n\nPause the webhook consumer.\n'),
    );
    await step('write 3', () => wiki.write('notes/café.md', '# Café\n\nThe naïve barista knows Stripe.\n'));
    await step('write 4', () => wiki.write('notes/100%_done.md', '# Done\n\nAll of it.\n'));
    await step('write same', () =>
      wiki.write('notes/café.md', '# Café\n\nThe naïve barista knows Stripe.\n'),
    );
    await step('write bad', () => wiki.write('../escape.md', 'x'));
    await step('update', () =>
      wiki.write('architecture/payments.md', '# Payments\n\nStripe webhooks are verified.\n'),
    );
    await step('conditional', () => wiki.write('architecture/payments.md', 'x', { expectedVersion: 1 }));
    await step('list', () => wiki.list());
    await step('list notes', () => wiki.list('notes'));
    await step('list 100%', () => wiki.list('notes/100%'));
    await step('search stripe', () => search('stripe'));
    await step('search outage', () => search('outage'));
    await step('search cafe', () => search('cafe'));
    await step('search naive', () => search('naïve'));
    await step('search prefix', () => search('webho*', { prefix: 'runbooks' }));
    await step('search none', () => search('kubernetes'));
    await step('search syntax', () => search("'a' & | !b:* <->"));
    await step('write deploy', () =>
      wiki.write('ops/deploy.md', '# Deployment\n\nThe Deployment waits for handle_webhook to drain.\n'),
    );
    await step('write deploys', () =>
      wiki.write(
        'ops/history.md',
        `# History\n\n${Array.from({ length: 40 }, (_, i) => `Step ${i}: nothing.`).join(' ')} Two deployments failed: handleWebhook.ts threw in src/payments/webhook.ts. ${'Later notes. '.repeat(20)}`,
      ),
    );
    await step('write accents', () =>
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
      await step(`search ${q}`, () => search(q));
    await step('search limit', () => search('nothing step', { limit: 1 }));
    await step('remove', () => wiki.remove('runbooks/stripe-outage.md'));
    await step('search after remove', () => search('outage'));
    await step('read removed', () => wiki.read('runbooks/stripe-outage.md'));
    await step('read removed v1', () => wiki.read('runbooks/stripe-outage.md', { version: 1 }));
    await step('restore', () => wiki.write('runbooks/stripe-outage.md', '# Stripe outage v2\n'));
    await step('history', () => wiki.history('runbooks/stripe-outage.md'));
    await step('history payments', () => wiki.history('architecture/payments.md'));
    await step('read', () => wiki.read('architecture/payments.md'));
    await step('read v1', () => wiki.read('architecture/payments.md', { version: 1 }));
    await step('other space', () => wiki.write('ops.md', '# Ops\n', { space: 'work' }));
    await step('list work', () => wiki.list('', { space: 'work' }));
    await step('final', () => wiki.list());
    return out;
  };
  const results: unknown[][] = [];
  for (const b of BACKENDS.filter((x) => !x.skip)) results.push(await run(b.name));
  // Awaited answers, not promises (two promises would compare equal whatever they hold).
  assert.ok(results[0].length > 40 && results[0].every((x) => !((x as unknown[])[1] instanceof Promise)));
  for (const r of results.slice(1)) assert.deepEqual(r, results[0]);
});
