/**
 * Memories on every backend, through the service: dedup (exact, near, scope), supersede and
 * as-of, forget/restore/purge, search ranking and filters, redaction, input validation,
 * provenance against a really indexed transcript, edge cases (unicode, LIKE metacharacters, query
 * syntax, long text, ties), concurrent writers in two processes, and one scripted sequence whose
 * results must agree between the backends.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { parseQuery } from '../../src/core/query.js';
import type { MemoryFilter } from '../../src/ports/memory-store.js';
import type { BackendKind } from '../../src/ports/stores.js';
import { createMemoryService, type MemoryQueryInput } from '../../src/services/memories.js';
import { createSpaceService } from '../../src/services/spaces.js';
import { openPostgresStores } from '../../src/storage/postgres/stores.js';
import { openSqliteStores } from '../../src/storage/sqlite/stores.js';
import { BACKENDS, freshSchema, indexedHome } from '../support/backends.js';
import { type BackendMemoryLab, DAY, memoryLabOn } from '../support/memory-lab.js';

const PNPM = 'We use pnpm for package management in the shop repository, never npm or yarn';
const ids = (r: { hits: { id: string }[] }) => r.hits.map((h) => h.id);
const listIds = (r: { memories: { id: string }[] }) => r.memories.map((m) => m.id);

/** One test per backend, each on a fresh lab. */
function each(name: string, fn: (lab: BackendMemoryLab) => void, settings = {}): void {
  for (const b of BACKENDS)
    test(`${name} (${b.name})`, { skip: b.skip }, () => {
      const lab = memoryLabOn(b.name, settings);
      try {
        fn(lab);
      } finally {
        lab.cleanup();
      }
    });
}

each('the same thing said twice is stored once: labels merge, importance rises to the max', (lab) => {
  const a = lab.memories.add({ content: PNPM, labels: ['tooling'], importance: 0.4 });
  assert.equal(a.deduplicated, false);
  lab.clock.now += 1000;
  const b = lab.memories.add({
    content: '  we use PNPM for package management in the shop repository — never npm or yarn!',
    labels: 'build,Tooling',
    importance: 0.9,
  });
  assert.equal(b.deduplicated, true);
  assert.equal(b.match, 'exact');
  assert.equal(b.id, a.id);
  assert.deepEqual(b.labels, ['tooling', 'build']);
  assert.equal(b.importance, 0.9);
  assert.equal(b.content, PNPM, 'the stored wording is kept');
  assert.equal(lab.memories.add({ content: PNPM, importance: 0.1 }).importance, 0.9);
  assert.equal(lab.memories.list().memories.length, 1);
  assert.deepEqual(
    ids(lab.memories.search('pnpm', { labels: ['build'] })),
    [a.id],
    'the merged label is indexed',
  );
});

each('a near-duplicate (a small edit) is found and merged; a different fact is not', (lab) => {
  const a = lab.memories.add({ content: PNPM, labels: ['tooling'] });
  const b = lab.memories.add({ content: `${PNPM} anywhere`, labels: ['monorepo'] });
  assert.equal(b.deduplicated, true);
  assert.equal(b.match, 'near');
  assert.ok(b.similarity! >= 0.8 && b.similarity! < 1, String(b.similarity));
  assert.equal(b.id, a.id);
  assert.deepEqual(b.labels, ['tooling', 'monorepo']);
  assert.equal(lab.memories.add({ content: PNPM.replace('never', 'and sometimes') }).deduplicated, false);
  const d = lab.memories.add({
    content: 'The shop API listens on port 8080 behind the nginx proxy in staging',
  });
  const e = lab.memories.add({
    content: 'The shop API listens on port 8081 behind the nginx proxy in staging',
  });
  assert.notEqual(d.id, e.id, 'a changed number is a different fact');
  // A superseded memory is no longer a near-duplicate candidate: its band keys are gone.
  const next = lab.memories.supersede(d.id, {
    content: 'The shop API listens on port 9090 behind envoy now',
  });
  const again = lab.memories.add({
    content: 'The shop API listens on port 8080 behind the nginx proxy in staging today',
  });
  assert.equal(again.deduplicated, false);
  assert.notEqual(again.id, next.id);
});

each('duplicates are never looked for across spaces, projects, or among forgotten memories', (lab) => {
  const a = lab.memories.add({ content: PNPM });
  const work = lab.memories.add({ content: PNPM, space: 'work' });
  assert.equal(work.deduplicated, false);
  assert.equal(work.space, 'work');
  const proj = lab.memories.add({ content: PNPM, project: '/home/dev/shop' });
  assert.equal(proj.deduplicated, false, 'a project-specific memory is not the general one');
  assert.equal(lab.memories.add({ content: PNPM, project: '/home/dev/shop/' }).id, proj.id);
  assert.equal(lab.memories.add({ content: `${PNPM} anywhere`, project: '/home/dev/shop' }).id, proj.id);
  assert.notEqual(lab.memories.add({ content: PNPM, project: '/home/dev/shop/web' }).id, proj.id);
  lab.memories.forget(a.id);
  assert.equal(lab.memories.add({ content: PNPM }).deduplicated, false, 'a forgotten one is not revived');
});

each('supersede: the old memory leaves normal results but as-of shows what was valid then', (lab) => {
  const t0 = lab.clock.now;
  const old = lab.memories.add({
    content: 'The Postgres connection pool size is 20',
    type: 'decision',
    labels: ['postgres'],
    importance: 0.8,
  });
  lab.clock.now += DAY;
  const next = lab.memories.supersede(old.link, {
    content: 'The Postgres connection pool size is 40 after the March load test',
    labels: ['perf'],
  });
  assert.deepEqual(next.supersedes, [old.id]);
  assert.equal(next.unit_type, 'decision');
  assert.deepEqual(next.labels, ['postgres', 'perf']);
  const was = lab.memories.get(old.id);
  assert.equal(was.status, 'superseded');
  assert.equal(was.superseded_by, next.id);
  assert.equal(was.valid_to, next.valid_from);
  assert.deepEqual(ids(lab.memories.search('postgres pool size')), [next.id]);
  assert.deepEqual(listIds(lab.memories.list()), [next.id]);
  const before = new Date(t0 + DAY / 2).toISOString();
  assert.deepEqual(ids(lab.memories.search('postgres pool size', { asOf: before })), [old.id]);
  assert.deepEqual(listIds(lab.memories.list({ asOf: before })), [old.id]);
  assert.deepEqual(
    ids(lab.memories.search('postgres pool', { asOf: new Date(lab.clock.now).toISOString() })),
    [next.id],
  );
  assert.deepEqual(lab.memories.list({ asOf: '2026-05-01' }).memories, []);
  assert.deepEqual(listIds(lab.memories.list({ status: 'superseded' })), [old.id]);
  assert.deepEqual(listIds(lab.memories.list({ status: 'all' })), [next.id, old.id]);
  assert.throws(() => lab.memories.supersede(old.id, { content: 'pool size is 30' }), { code: 'CONFLICT' });
  assert.throws(() => lab.memories.update(old.id, { importance: 1 }), { code: 'CONFLICT' });
});

each('forget hides, restore brings back, purge deletes (only a forgotten memory unless forced)', (lab) => {
  const m = lab.memories.add({ content: 'The billing cron runs at 02:00 UTC every night', labels: ['cron'] });
  assert.throws(() => lab.memories.purge(m.id), { code: 'CONFLICT' });
  const f = lab.memories.forget(m.id);
  assert.equal(f.status, 'forgotten');
  assert.equal(f.changed, true);
  assert.equal(lab.memories.forget(m.id).changed, false);
  assert.equal(lab.memories.search('billing cron').hits.length, 0);
  assert.equal(lab.memories.list().memories.length, 0);
  assert.deepEqual(listIds(lab.memories.list({ status: 'forgotten' })), [m.id]);
  assert.deepEqual(listIds(lab.memories.list({ status: 'forgotten', labels: ['cron'] })), [m.id]);
  assert.equal(lab.memories.get(m.id).status, 'forgotten');
  assert.equal(lab.memories.restore(m.id).status, 'active');
  assert.deepEqual(ids(lab.memories.search('billing cron')), [m.id]);
  lab.memories.forget(m.id);
  assert.deepEqual(lab.memories.purge(m.id), { id: m.id, purged: true });
  assert.throws(() => lab.memories.get(m.id), { code: 'NOT_FOUND' });
  assert.equal(lab.memories.list({ status: 'all' }).memories.length, 0);
  assert.equal(lab.memories.search('billing', { labels: ['cron'] }).hits.length, 0);
  // A purged memory's text can be added again (its hash and band keys went with it).
  assert.equal(
    lab.memories.add({ content: 'The billing cron runs at 02:00 UTC every night' }).deduplicated,
    false,
  );

  const old = lab.memories.add({ content: 'Feature flags live in LaunchDarkly for the web app' });
  const next = lab.memories.supersede(old.id, {
    content: 'Feature flags moved to our own flags table in Postgres',
  });
  lab.memories.purge(next.id, { force: true });
  const orphan = lab.memories.get(old.id);
  assert.equal(orphan.superseded_by, null, 'no link to a purged memory is left');
  assert.equal(orphan.status, 'superseded');
});

each('search ranks by relevance, then importance, then recency; filters narrow', (lab) => {
  const t0 = lab.clock.now;
  const low = lab.memories.add({
    content: 'Alpha release checklist lives in docs one',
    importance: 0.2,
    type: 'procedure',
    labels: ['release'],
  });
  const high = lab.memories.add({
    content: 'Alpha release checklist lives in docs two',
    importance: 0.9,
    type: 'fact',
    labels: ['release', 'docs'],
  });
  lab.clock.now += 200 * DAY;
  const newer = lab.memories.add({
    content: 'Alpha release checklist lives in docs six',
    importance: 0.2,
    project: '/home/dev/shop/web',
    eventStart: '2026-12-01',
  });
  lab.memories.add({ content: 'Unrelated note about the coffee machine', importance: 1 });

  const r = lab.memories.search('alpha checklist');
  assert.deepEqual(ids(r), [high.id, newer.id, low.id]);
  assert.ok(r.hits[0].score > r.hits[1].score && r.hits[1].score > r.hits[2].score);
  assert.deepEqual(ids(lab.memories.search('alpha', { labels: ['release', 'docs'] })), [high.id]);
  assert.deepEqual(ids(lab.memories.search('alpha', { types: ['procedure', 'decision'] })), [low.id]);
  assert.deepEqual(ids(lab.memories.search('alpha', { project: '/home/dev/shop' })), [newer.id]);
  assert.deepEqual(
    ids(lab.memories.search('alpha', { project: '/home/dev/sho' })),
    [],
    'a prefix is not a parent',
  );
  assert.deepEqual(ids(lab.memories.search('alpha', { since: '2026-11-01' })), [newer.id]);
  assert.deepEqual(
    ids(lab.memories.search('alpha', { until: new Date(t0 + DAY).toISOString() })).sort(),
    [low.id, high.id].sort(),
  );
  assert.equal(ids(lab.memories.search('alpha -six')).includes(newer.id), false, 'exclusions');
  assert.deepEqual(ids(lab.memories.search('alpha -"docs six"')).sort(), [low.id, high.id].sort());
  assert.equal(lab.memories.search('alpha', { limit: 1 }).hits.length, 1);
  assert.deepEqual(ids(lab.memories.search('checklists')), ids(lab.memories.search('checklist')), 'stemmed');
  assert.equal(lab.memories.search('check*').hits.length, 3, 'prefix');
  assert.deepEqual(ids(lab.memories.search('"docs six"')), [newer.id], 'phrase');
  assert.deepEqual(ids(lab.memories.search('"six docs"')), [], 'a phrase keeps its order');
  // Strict: matching every term beats matching one, whatever the importance.
  const both = lab.memories.add({ content: 'Zebra migrations and quokka fixtures', importance: 0 });
  lab.memories.add({ content: 'Zebra crossing near the office', importance: 1 });
  assert.equal(lab.memories.search('zebra quokka').hits[0].id, both.id);
});

each('search stays correct past the distinctive-term threshold (common terms, selective filters)', (lab) => {
  lab.bulk(() => {
    for (let i = 0; i < 420; i++)
      lab.memories.add({
        content: `Deploy note number ${i}: the deploy pipeline step ${i % 7} ran for ${i} seconds`,
        importance: 0.3,
        labels: i % 50 === 0 ? ['rare'] : [],
      });
  });
  const k8s = lab.memories.add({
    content: 'Deploy to kubernetes goes through the argo pipeline',
    importance: 0.3,
  });
  const vip = lab.memories.add({ content: 'Every deploy needs a second reviewer on Fridays', importance: 1 });
  const tiny = lab.memories.add({ content: 'Deploy the side project by hand from a laptop', space: 'tiny' });
  assert.equal(lab.memories.search('deploy kubernetes').hits[0].id, k8s.id, 'the distinctive term decides');
  assert.equal(lab.memories.search('deploy').hits[0].id, vip.id, 'only common terms: importance decides');
  assert.equal(lab.memories.search('deploy pipeline').hits.length, 10);
  assert.deepEqual(ids(lab.memories.search('deploy', { space: 'tiny' })), [tiny.id]);
  assert.equal(lab.memories.search('deploy', { allSpaces: true, limit: 100 }).hits.length, 100);
  assert.equal(lab.memories.search('deploy', { labels: ['rare'], limit: 100 }).hits.length, 9);
  assert.equal(lab.memories.search('deploy -pipeline', { limit: 100 }).hits.length, 1, 'vip only');
});

each(
  'spaces isolate: a search in one space never returns another space unless asked',
  (lab) => {
    const d = lab.memories.add({ content: 'Invoices are generated on the first of the month' });
    const c = lab.memories.add({
      content: 'Invoices for the client are generated weekly',
      project: '/home/dev/client/api',
    });
    assert.equal(c.space, 'client');
    assert.deepEqual(ids(lab.memories.search('invoices generated')), [d.id]);
    assert.deepEqual(ids(lab.memories.search('invoices generated', { space: 'client' })), [c.id]);
    assert.deepEqual(ids(lab.memories.search('invoices generated', { cwd: '/home/dev/client' })), [c.id]);
    assert.deepEqual(
      ids(lab.memories.search('invoices generated', { allSpaces: true })).sort(),
      [c.id, d.id].sort(),
    );
    assert.deepEqual(listIds(lab.memories.list({ space: 'client' })), [c.id]);
    assert.equal(lab.memories.get(c.id).id, c.id);
  },
  { mappings: { '/home/dev/client': 'client' } },
);

each('secrets are redacted before storage, in content, title and source', (lab) => {
  const key = `sk-proj-${'a1B2c3D4e5'.repeat(4)}`;
  const m = lab.memories.add({
    content: `The staging OpenAI key is OPENAI_API_KEY=${key} (rotate monthly)`,
    title: `key ${key}`,
    source: 'https://admin:hunter2pass@example.com/wiki/keys',
  });
  assert.doesNotMatch(JSON.stringify(m), /a1B2c3D4e5|hunter2pass/);
  assert.doesNotMatch(JSON.stringify(lab.memories.get(m.id)), /a1B2c3D4e5|hunter2pass/);
  assert.match(m.content, /\[REDACTED:openai-key\]/);
  assert.match(m.provenance!.source!, /\[REDACTED:url-password\]/);
  assert.equal(lab.memories.search('a1B2c3D4e5').hits.length, 0);
  assert.equal(lab.memories.search('hunter2pass').hits.length, 0);
  assert.equal(lab.memories.search('rotate monthly').hits[0].id, m.id);
});

each('update corrects in place; the index follows the content, labels and project', (lab) => {
  const m = lab.memories.add({ content: 'Lint with eslint', labels: ['lint', 'js'] });
  lab.clock.now += 1000;
  const u = lab.memories.update(m.id.slice(0, 8), {
    content: 'Lint with biome',
    addLabels: ['biome'],
    removeLabels: 'js',
    importance: 0.7,
  });
  assert.equal(u.id, m.id, 'a unique id prefix works');
  assert.equal(u.title, 'Lint with biome');
  assert.deepEqual(u.labels, ['lint', 'biome']);
  assert.equal(u.importance, 0.7);
  assert.ok(u.updated_at > m.updated_at);
  assert.equal(lab.memories.search('eslint').hits.length, 0);
  assert.equal(lab.memories.search('biome').hits[0].id, m.id);
  assert.equal(lab.memories.search('lint', { labels: ['js'] }).hits.length, 0);
  assert.equal(lab.memories.list({ labels: ['biome'] }).memories.length, 1);
  assert.equal(lab.memories.update(m.id, { project: '/x/y', eventStart: '2026-01-01' }).project, '/x/y');
  assert.equal(lab.memories.list({ project: '/x' }).memories.length, 1);
  const cleared = lab.memories.update(m.id, { project: '', eventStart: null });
  assert.equal(cleared.project, null);
  assert.equal(cleared.event_start, null);
  assert.equal(lab.memories.list({ project: '/x' }).memories.length, 0);
  assert.throws(() => lab.memories.update(m.id, {}), /Nothing to update/);
  assert.throws(() => lab.memories.get('nope'), { code: 'NOT_FOUND' });
});

each('bad input is refused with INVALID_INPUT naming the problem, and nothing is written', (lab) => {
  const bad: [Record<string, unknown>, RegExp][] = [
    [{ content: '   ' }, /content is empty/],
    [{ content: 'x'.repeat(20_001) }, /20,001 characters; the limit is 20,000/],
    [{ content: 'ok', importance: 1.5 }, /importance must be a number from 0 to 1/],
    [{ content: 'ok', importance: 'high' }, /importance/],
    [{ content: 'ok', confidence: -0.1 }, /confidence/],
    [{ content: 'ok', type: 'opinion' }, /Unknown memory type "opinion"; known: fact, preference/],
    [{ content: 'ok', eventStart: 'next tuesday' }, /event start: Cannot read the date/],
    [{ content: 'ok', eventStart: '2026-05-02', eventEnd: '2026-05-01' }, /ends before it starts/],
    [{ content: 'ok', labels: ['has space'] }, /Invalid label "has space"/],
    [{ content: 'ok', project: 'relative/dir' }, /absolute directory/],
    [{ content: 'ok', steps: '1-2' }, /needs a thread/],
    [{ content: 'ok', space: 'Bad' }, /Invalid space "Bad"/],
  ];
  for (const [input, message] of bad)
    assert.throws(
      () => lab.memories.add(input as never),
      (e: { code?: string; message?: string }) => {
        assert.equal(e.code, 'INVALID_INPUT', JSON.stringify(input).slice(0, 80));
        assert.match(e.message ?? '', message);
        return true;
      },
    );
  assert.equal(lab.memories.list({ status: 'all', allSpaces: true }).memories.length, 0);
  assert.throws(() => lab.memories.search('ok', { asOf: 'soon' }), /as-of: Cannot read the date "soon"/);
  assert.throws(() => lab.memories.search(''), { code: 'INVALID_INPUT' });
  const m = lab.memories.add({ content: 'ok then' });
  assert.throws(() => lab.memories.update(m.id, { steps: 'x-y', thread: 't' }), { code: 'INVALID_INPUT' });
});

for (const b of BACKENDS)
  test(`provenance: threads are checked against an indexed transcript; links resolve (${b.name})`, {
    skip: b.skip,
  }, (t) => {
    const { engine, thread } = indexedHome(t, b.name, '7a7a7a7a-1111-4222-8333-444444444444', [
      'Which queue do we use?',
      'We decided on SQS over RabbitMQ.',
    ]);
    const m = engine.memories.add({
      content: 'We use SQS, not RabbitMQ, for background jobs',
      type: 'decision',
      thread,
      steps: '0-1',
    });
    assert.deepEqual(m.provenance, {
      thread,
      step_from: 0,
      step_to: 1,
      link: `tapedeck://thread/${thread}#0`,
      source: null,
    });
    assert.equal(m.link, `tapedeck://memory/${m.id}`);
    assert.deepEqual(engine.memories.get(`tapedeck://memory/${m.id}`).provenance, m.provenance);
    const fromLink = engine.memories.add({
      content: 'SQS queues are created by Terraform',
      thread: `tapedeck://thread/${thread}#1`,
    });
    assert.equal(fromLink.provenance?.step_from, 1);
    assert.throws(() => engine.memories.add({ content: 'x y z', thread: 'claude-code:nope' }), {
      code: 'NOT_FOUND',
    });
    assert.throws(() => engine.memories.add({ content: 'x y z', thread, steps: '50-60' }), {
      code: 'NOT_FOUND',
    });
    assert.throws(() => engine.memories.add({ content: 'x y z', thread, steps: '3-1' }), {
      code: 'INVALID_INPUT',
    });
    const file = engine.memories.add({
      content: 'Runbook for SQS dead letters',
      source: 'docs/runbooks/sqs.md',
    });
    assert.deepEqual(engine.memories.get(file.id).provenance, {
      thread: null,
      step_from: null,
      step_to: null,
      link: null,
      source: 'docs/runbooks/sqs.md',
    });
    assert.equal(engine.memories.list({ status: 'all' }).memories.length, 3, 'refused adds wrote nothing');
  });

each('edge cases: unicode, LIKE metacharacters, query syntax, long text, empty results', (lab) => {
  const cafe = lab.memories.add({ content: 'Le café naïve du Zürich bureau ouvre à 8h' });
  const jp = lab.memories.add({ content: '東京 の サーバー は 毎晩 再起動 する' });
  const emoji = lab.memories.add({ content: 'Ship it 🚀 only after the smoke test passes' });
  assert.deepEqual(ids(lab.memories.search('cafe naive')), [cafe.id], 'diacritics fold');
  assert.deepEqual(ids(lab.memories.search('CAFÉ')), [cafe.id]);
  assert.deepEqual(ids(lab.memories.search('東京')), [jp.id]);
  assert.deepEqual(ids(lab.memories.search('smoke 🚀')), [emoji.id]);

  // Project filters treat % and _ literally.
  const pct = lab.memories.add({ content: 'Percent project memory', project: '/home/dev/100%_done' });
  const other = lab.memories.add({ content: 'Percent lookalike memory', project: '/home/dev/100xydone/sub' });
  const under = lab.memories.add({ content: 'Percent child memory', project: '/home/dev/100%_done/api' });
  assert.deepEqual(
    listIds(lab.memories.list({ project: '/home/dev/100%_done' })).sort(),
    [pct.id, under.id].sort(),
  );
  assert.deepEqual(
    ids(lab.memories.search('percent', { project: '/home/dev/100%_done' })).sort(),
    [pct.id, under.id].sort(),
  );
  assert.deepEqual(listIds(lab.memories.list({ project: '/home/dev/100%' })), []);
  assert.deepEqual(listIds(lab.memories.list({ project: '/home/dev/100xydone' })), [other.id]);

  // Query syntax of either engine is just text.
  for (const q of [
    "it's",
    '"unbalanced',
    'a & b | !c',
    "'quoted' <-> :* (x)",
    'NEAR(a b)',
    'col:val',
    '\\',
    '*',
    '-',
    'AND OR NOT',
  ])
    assert.doesNotThrow(() => lab.memories.search(q), q);
  assert.deepEqual(lab.memories.search('nothingmatchesthis').hits, []);
  assert.deepEqual(lab.memories.search('-cafe').hits, [], 'only an exclusion: nothing to look for');

  // Very long text: a 20,000-character memory with a 5,000-character token is stored and found.
  const blob = 'x'.repeat(5000);
  const long = lab.memories.add({
    content: `Long memory marker ${blob} ${'filler words again '.repeat(700)}`.slice(0, 20_000),
  });
  assert.equal(lab.memories.get(long.id).content, long.content);
  assert.deepEqual(ids(lab.memories.search('marker')), [long.id]);
  assert.equal(lab.memories.search(blob.slice(0, 1900)).hits.length <= 1, true);
  assert.throws(() => lab.memories.add({ content: 'y'.repeat(20_001) }), { code: 'INVALID_INPUT' });
});

each('listing: newest first, ties broken by id, pages neither skip nor repeat', (lab) => {
  const made: { id: string; at: number }[] = [];
  lab.bulk(() => {
    for (let i = 0; i < 25; i++) {
      if (i % 5 === 0) lab.clock.now += 1000; // groups of five share updated_at
      made.push({
        id: lab.memories.add({ content: `Tie note ${i} about widget ${i * 7}` }).id,
        at: lab.clock.now,
      });
    }
  });
  // The one total order every listing by time uses: newest first, then the id (descending), so it is the
  // same on every backend and after an export/import or migrate that gives rows new internal numbers.
  const expected = [...made]
    .sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
    .map((m) => m.id);
  const pages: string[] = [];
  let offset: number | null = 0;
  while (offset !== null) {
    const page = lab.memories.list({ limit: 7, offset });
    pages.push(...listIds(page));
    offset = page.next_offset;
  }
  assert.deepEqual(pages, expected, 'newest first; equal times: by id');
  assert.deepEqual(listIds(lab.memories.list({ limit: 3 })), expected.slice(0, 3));
});

/**
 * Normalise generated ids to the order they were first seen, and drop timings. Search hits keep
 * their order and scores: both backends rank by FTS5's bm25 with the same figures.
 */
function normaliser() {
  const seen = new Map<string, string>();
  const norm = (v: unknown): unknown => {
    if (typeof v === 'string')
      return v.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => {
        if (!seen.has(id)) seen.set(id, `#${seen.size + 1}`);
        return seen.get(id)!;
      });
    if (Array.isArray(v)) return v.map(norm);
    if (v && typeof v === 'object')
      return Object.fromEntries(
        Object.entries(v)
          .filter(([k]) => k !== 'took_ms')
          .map(([k, x]) => [k, norm(x)]),
      );
    return v;
  };
  return norm;
}

/** deepEqual, except that numbers need only agree to `rel` relative (scores computed in JS vs C). */
function assertClose(actual: unknown, expected: unknown, where: string, rel = 1e-9): void {
  if (typeof expected === 'number' && typeof actual === 'number') {
    const tol = rel * Math.max(Math.abs(expected), Math.abs(actual));
    assert.ok(Math.abs(actual - expected) <= tol, `${where}: ${actual} != ${expected}`);
    return;
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    assert.equal(actual.length, expected.length, `${where}: length`);
    for (const [i, e] of expected.entries()) assertClose(actual[i], e, `${where}[${i}]`, rel);
    return;
  }
  if (expected && actual && typeof expected === 'object' && typeof actual === 'object') {
    assert.deepEqual(Object.keys(actual).sort(), Object.keys(expected).sort(), `${where}: keys`);
    for (const [k, e] of Object.entries(expected))
      assertClose((actual as Record<string, unknown>)[k], e, `${where}.${k}`, rel);
    return;
  }
  assert.deepEqual(actual, expected, where);
}

/** The store's candidates for a query with their exact bm25, newest first (ids are random). */
function candidatesOf(lab: BackendMemoryLab, q: string, filter: Partial<MemoryFilter> = {}, pool = 500) {
  return lab.stores.memories
    .candidates(parseQuery(q), { spaces: null, ...filter }, pool)
    .sort(
      (a, b) => b.updated_at.localeCompare(a.updated_at) || b.importance - a.importance || b.bm25 - a.bm25,
    );
}

/** A fixed sequence of service calls; every result is recorded. */
async function script(lab: BackendMemoryLab): Promise<unknown[]> {
  const out: unknown[] = [];
  const m = lab.memories;
  const rec = <T>(label: string, fn: () => T) => {
    try {
      out.push([label, fn()]);
    } catch (e) {
      out.push([label, 'error', (e as { code?: string }).code, (e as Error).message]);
    }
  };
  const topics = ['cache', 'queue', 'ledger', 'webhook', 'schema', 'retry'];
  lab.bulk(() => {
    for (let i = 0; i < 40; i++) {
      lab.clock.now += 60_000;
      rec(`add ${i}`, () =>
        m.add({
          content: `The ${topics[i % 6]} service ${i % 4 === 0 ? 'handles retries' : 'uses Postgres'} for tenant ${i}`,
          type: i % 5 === 0 ? 'decision' : 'fact',
          // Label counts and project depths vary: FTS5 counts its filter tags in a row's length.
          labels: [topics[i % 6], i % 3 === 0 ? 'ops' : 'dev', ...(i % 4 === 1 ? ['hot'] : [])],
          importance: (i % 10) / 10,
          project:
            i % 3 === 0 ? '/srv/app' : i % 3 === 1 ? '/srv/app-old/api/v2' : i % 8 ? '/srv/cli' : undefined,
          eventStart: i % 7 === 0 ? `2026-0${1 + (i % 9)}-15` : undefined,
        }),
      );
    }
  });
  lab.clock.now += DAY;
  rec('dup exact', () =>
    m.add({
      content: 'the CACHE service handles retries, for tenant 0!',
      labels: ['ops'],
      importance: 0.05,
      project: '/srv/app',
    }),
  );
  rec('dup near', () =>
    m.add({ content: 'The queue service uses Postgres for tenant 1 today', project: '/srv/app-old' }),
  );
  rec('below', () => m.add({ content: 'Kafka topics are compacted nightly', project: '/srv/app/api' }));
  rec('handleWebhook', () =>
    m.add({
      content: 'handleWebhook in src/payments/webhook.ts verifies signatures',
      type: 'procedure',
      labels: ['webhook', 'dev'],
      project: '/srv/web',
    }),
  );
  const last = m.list({ limit: 1, labels: ['retry'] }).memories[0]!;
  rec('update', () =>
    m.update(last.id, { content: 'The retry service now uses Redis for tenant 35', importance: 0.95 }),
  );
  lab.clock.now += DAY;
  const victim = m.search('ledger tenant').hits[0]!;
  rec('supersede', () =>
    m.supersede(victim.id, { content: 'The ledger service moved to CockroachDB last week' }),
  );
  rec('forget', () => m.forget(m.search('schema').hits[0]!.id));
  for (const [q, opts] of [
    ['tenant', {}],
    ['postgres tenant', {}],
    ['retries', { project: '/srv/app' }],
    ['service', { labels: ['ops'] }],
    ['service', { types: ['decision'] }],
    ['webhook.ts', {}],
    ['handle_webhook', {}],
    ['ledger', { asOf: new Date(lab.clock.now - DAY).toISOString() }],
    ['service -postgres', {}],
    ['"uses postgres"', { since: '2026-03-01' }],
    ['cache*', {}],
    ['nothing here', {}],
  ] as [string, MemoryQueryInput][])
    rec(`search ${q}`, () => m.search(q, { limit: 100, ...opts }));
  for (const q of [
    'tenant',
    'postgres tenant',
    'service -postgres',
    'handle_webhook',
    'cache*',
    '"uses postgres"',
  ])
    rec(`candidates ${q}`, () => candidatesOf(lab, q, { statuses: ['active', 'superseded', 'forgotten'] }));
  for (const opts of [
    {},
    { limit: 5, offset: 5 },
    { status: 'all', limit: 100 },
    { status: 'forgotten' },
    { project: '/srv/app' },
    { project: '/srv/app_old' },
    { asOf: new Date(lab.clock.now - DAY).toISOString(), limit: 100 },
  ])
    rec(`list ${JSON.stringify(opts)}`, () => m.list(opts));
  // The context bundle is async (it reads rules through the async store): awaited, so its answer is
  // compared, not a pending promise.
  out.push(['bundle', await lab.bundle().build({ project: '/srv/app', budget: 300 })]);
  out.push(['bundle all', await lab.bundle().build({ budget: 3000 })]);
  return out;
}

test('one scripted sequence gives the same results on every backend', {
  skip: BACKENDS.some((b) => b.skip) ? 'needs every backend' : false,
}, async () => {
  const results: unknown[] = [];
  for (const b of BACKENDS) {
    const lab = memoryLabOn(b.name);
    try {
      results.push(normaliser()(await script(lab)));
    } finally {
      lab.cleanup();
    }
  }
  const [a, b] = results as unknown[][];
  for (let i = 0; i < Math.max(a.length, b.length); i++) assertClose(b[i], a[i], `step ${i}`);
});

test('stems, word boundaries, accents and identifiers find the same memories on every backend', {
  skip: BACKENDS.some((b) => b.skip) ? 'needs every backend' : false,
}, () => {
  const texts = [
    'The Deployment waits for the queue to drain',
    'Two deployments failed on Friday',
    'Call handle_webhook before retrying',
    'handleWebhook in src/payments/webhook.ts verifies signatures',
    'Crème brûlée at the Ñandú café, naïve RÉSUMÉ',
    'We handle errors with a wrapper',
  ];
  const cases: [string, number[]][] = [
    ['deployments', [0, 1]],
    ['Deployment', [0, 1]],
    // Memories index identifiers' parts beside the text (core/idents.ts), on both backends.
    ['handle', [2, 3, 5]],
    ['handle_webhook', [2, 3]],
    ['handleWebhook', [2, 3]],
    ['webhook.ts', [3]],
    ['src/payments/webhook.ts', [3]],
    ['resume', [4]],
    ['creme nandu', [4]],
    ['"creme brulee"', [4]],
    ['deplo* -friday', [0]],
  ];
  const results = BACKENDS.map((b) => {
    const lab = memoryLabOn(b.name);
    try {
      const made = texts.map((content) => lab.memories.add({ content }).id);
      return cases.map(([q, want]) => {
        const got = ids(lab.memories.search(q, { limit: 100 }))
          .map((id) => made.indexOf(id))
          .sort();
        assert.deepEqual(got, want, `${q} (${b.name})`);
        return got;
      });
    } finally {
      lab.cleanup();
    }
  });
  assert.deepEqual(results[1], results[0]);
});

/**
 * ~30 memories written so texts differ by a word, a label, a project depth (near-ties for bm25),
 * some re-indexed by updates, forgotten or purged (FTS5's totals count every indexed row), plus
 * enough fillers to make one word common (the unranked tier and the fill-up below ranked hits).
 */
function rankingLab(lab: BackendMemoryLab): void {
  const m = lab.memories;
  const texts: [string, Partial<Parameters<typeof m.add>[0]>][] = [
    ['The checkout service retries payment webhooks three times', { labels: ['payments'] }],
    ['The checkout service retries payment webhooks', { labels: ['payments', 'ops'] }],
    ['Checkout retries are logged to the audit table', { type: 'decision' }],
    ['Payment retries use exponential backoff with jitter', { labels: ['payments'], project: '/srv/pay' }],
    ['Retrying a payment twice double charges the card', { type: 'learning', project: '/srv/pay/api' }],
    ['handleWebhook in src/payments/webhook.ts verifies signatures', { type: 'procedure' }],
    ['Call handle_webhook before retrying a delivery', { labels: ['webhooks'] }],
    ['The webhook handler lives in webhook.ts', {}],
    ['Deployments run from the release branch on Fridays', { type: 'decision', labels: ['release'] }],
    ['A deployment waits for the queue to drain', { labels: ['release', 'ops'] }],
    ['Deploying during a freeze needs approval', { type: 'preference' }],
    ['The queue consumer acknowledges after the write commits', {}],
    ['Queue consumers must be idempotent', { type: 'learning' }],
    ['Consumers read the queue in batches of fifty', { labels: ['perf'] }],
    ['Use pnpm, never npm or yarn, in the shop repository', { type: 'preference' }],
    ['The shop repository pins Node 20', { project: '/srv/shop' }],
    ['Cache invalidation happens on every product write', { labels: ['perf'] }],
    ['The product cache holds prices for five minutes', { labels: ['perf', 'payments'] }],
    ['Caching the cart broke discounts last spring', { type: 'event' }],
    ['The ledger table is append only', { type: 'decision', labels: ['ledger'] }],
    ['Ledger entries are never updated, only reversed', { labels: ['ledger'] }],
    ['Reversal entries reference the original ledger row', {}],
    ['Crème brûlée recipes live in the café wiki', {}],
    ['The résumé parser drops accents before indexing', {}],
    ['Tokens expire after fifteen minutes; refresh tokens after thirty days', { labels: ['auth'] }],
    ['Refresh tokens rotate on every use', { labels: ['auth', 'ops'] }],
    ['The auth service signs tokens with ES256', { type: 'decision', project: '/srv/auth/core/keys' }],
    ['Rate limits are per tenant, not per user', {}],
    ['Tenants get 100 requests per second by default', { labels: ['perf'] }],
    ['Per-tenant limits live in the tenants table', {}],
  ];
  const made: string[] = [];
  lab.bulk(() => {
    texts.forEach(([content, opts], i) => {
      lab.clock.now += 60_000;
      made.push(m.add({ content, importance: 0.3 + (i % 5) / 10, ...opts }).id);
    });
    // 320 fillers make "routine" common: more than the 300 memories a ranked term may have.
    for (let i = 0; i < 320; i++) {
      lab.clock.now += 1000; // distinct times: equal scores would fall back on the random ids
      m.add({
        content: `Routine check ${i}: ${['cron', 'disk', 'backup', 'cert', 'dns'][i % 5]} ${i * 7919} ok`,
        importance: 0.1,
      });
    }
  });
  lab.clock.now += DAY;
  m.update(made[1]!, { content: 'The checkout service retries payment webhooks with backoff' });
  m.update(made[9]!, { labels: ['release', 'ops', 'queue'] });
  m.forget(made[12]!);
  m.forget(made[27]!);
  m.purge(made[27]!);
  m.add({ content: 'Routine payment audit every quarter, checkout included', importance: 0.9 });
}

test('search ranks, scores and orders the same on every backend', {
  skip: BACKENDS.some((b) => b.skip) ? 'needs every backend' : false,
}, () => {
  const queries: [string, MemoryQueryInput][] = [
    ['retries', {}],
    ['retry', {}],
    ['checkout retries', {}],
    ['payment', {}],
    ['payments', { labels: ['payments'] }],
    ['webhook', {}],
    ['handleWebhook', {}],
    ['handle_webhook', {}],
    ['webhook.ts', {}],
    ['deploy*', {}],
    ['queue -consumers', {}],
    ['consumer*', { status: ['active', 'forgotten'] } as MemoryQueryInput],
    ['"refresh tokens"', {}],
    ['tokens', { types: ['decision'] }],
    ['ledger', { labels: ['ledger'] }],
    ['creme resume', {}],
    ['tenant limits', {}],
    ['cache product', { labels: ['perf'] }],
    ['routine', {}],
    ['routine payment', {}],
    ['routine checkout -audit', { limit: 50 }],
    ['pay*', { project: '/srv/pay' }],
    ['nothing matches this', {}],
  ];
  const results = BACKENDS.map((b) => {
    const lab = memoryLabOn(b.name);
    try {
      rankingLab(lab);
      // Ids are random: a memory is named by its (unique) content.
      const name = (id: string) => lab.stores.memories.get(id)?.content ?? id;
      return queries.map(([q, opts]) => ({
        q,
        hits: lab.memories.search(q, { limit: 20, ...opts }).hits.map((h) => [name(h.id), h.score]),
        candidates: candidatesOf(lab, q, {}, 50).map((c) => ({ ...c, id: name(c.id) })),
      }));
    } finally {
      lab.cleanup();
    }
  });
  const [sqlite, pg] = results;
  for (const [i, want] of sqlite!.entries()) {
    const got = pg![i]!;
    assertClose(got.hits, want.hits, `hits of ${want.q}`);
    assertClose(got.candidates, want.candidates, `candidates of ${want.q}`);
  }
  // The queries exercised every tier: ranked, unranked (a common word) and ranked filled up.
  const by = (q: string) => sqlite!.find((r) => r.q === q)!;
  assert.ok(by('retries').hits.length >= 3);
  assert.ok(by('routine').candidates.length === 50 && by('routine').candidates.every((c) => c.bm25 === 1));
  assert.ok(by('routine payment').candidates.some((c) => c.bm25 > 1));
  assert.ok(new Set(by('routine payment').candidates.map((c) => c.bm25)).size > 2);
  assert.deepEqual(by('nothing matches this').hits, []);
});

const execFileP = promisify(execFile);
const CHILD = join(import.meta.dirname, '..', 'support', 'memory-writer-child.ts');

for (const b of BACKENDS)
  test(`two processes adding the same memories at once store each once (${b.name})`, {
    skip: b.skip,
  }, async () => {
    let location: string;
    let cleanup: () => void;
    if (b.name === 'postgres') {
      const s = freshSchema();
      location = s.url;
      cleanup = s.drop;
    } else {
      const dir = mkdtempSync(join(tmpdir(), 'tapedeck-race-'));
      location = join(dir, 'tapedeck.db');
      cleanup = () => rmSync(dir, { recursive: true, force: true });
    }
    try {
      // Open (and migrate) first, so both children start on a ready store.
      const lab = openLocation(b.name, location);
      const start = Date.now() + 2500;
      const run = () =>
        execFileP(process.execPath, ['--import', 'tsx', CHILD, b.name, location, String(start), '30'], {
          encoding: 'utf8',
          timeout: 120_000,
        });
      const [x, y] = await Promise.all([run(), run()]);
      const ax = JSON.parse(x.stdout) as { id: string; deduplicated: boolean }[];
      const ay = JSON.parse(y.stdout) as { id: string; deduplicated: boolean }[];
      assert.equal(ax.length, 30);
      assert.deepEqual(
        ax.map((r) => r.id),
        ay.map((r) => r.id),
        'both processes got the same memory for each text',
      );
      for (let i = 0; i < 30; i++)
        assert.equal(ax[i]!.deduplicated !== ay[i]!.deduplicated, true, `exactly one created memory ${i}`);
      const stored = lab.list();
      assert.equal(stored.length, 30, 'each memory stored once');
      lab.close();
    } finally {
      cleanup();
    }
  });

/** A memory service over an existing store location (to read what the children wrote). */
function openLocation(kind: BackendKind, location: string) {
  const stores = kind === 'postgres' ? openPostgresStores(location) : openSqliteStores(location);
  const memories = createMemoryService({
    store: stores.memories,
    spaces: createSpaceService({}),
    threads: { getThread: () => undefined, getSteps: () => [] },
  });
  return {
    list: () => memories.list({ limit: 1000, status: 'all' }).memories,
    close: () => stores.close(),
  };
}
