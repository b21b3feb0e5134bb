/** Memories through the service over a real SQLite file: dedup, lifecycle, validation, redaction. */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { claudeLine, claudePath, tempHome } from './support/home.js';
import { DAY, memoryLab } from './support/memories.js';

const PNPM = 'We use pnpm for package management in the shop repository, never npm or yarn';

test('the same thing said twice is stored once: labels merge, importance rises to the max', () => {
  const lab = memoryLab();
  after(lab.cleanup);
  const a = lab.memories.add({ content: PNPM, labels: ['tooling'], importance: 0.4 });
  assert.equal(a.deduplicated, false);
  lab.clock.now += 1000;
  const b = lab.memories.add({
    content: `  we use PNPM for package management in the shop repository — never npm or yarn!`,
    labels: 'build,Tooling',
    importance: 0.9,
  });
  assert.equal(b.deduplicated, true);
  assert.equal(b.match, 'exact');
  assert.equal(b.id, a.id);
  assert.deepEqual(b.labels, ['tooling', 'build']);
  assert.equal(b.importance, 0.9);
  assert.equal(b.content, PNPM, 'the stored wording is kept');
  const c = lab.memories.add({ content: PNPM, importance: 0.1 });
  assert.equal(c.importance, 0.9, 'importance never drops on a duplicate');
  assert.equal(lab.memories.list().memories.length, 1);
});

test('a near-duplicate (a small edit) is found and merged; a different fact is not', () => {
  const lab = memoryLab();
  after(lab.cleanup);
  const a = lab.memories.add({ content: PNPM, labels: ['tooling'] });
  const b = lab.memories.add({ content: `${PNPM} anywhere`, labels: ['monorepo'] });
  assert.equal(b.deduplicated, true);
  assert.equal(b.match, 'near');
  assert.ok(b.similarity! >= 0.8 && b.similarity! < 1, String(b.similarity));
  assert.equal(b.id, a.id);
  assert.deepEqual(b.labels, ['tooling', 'monorepo']);
  const c = lab.memories.add({ content: PNPM.replace('never', 'and sometimes') });
  assert.equal(c.deduplicated, false, 'different words, different memory');
  const d = lab.memories.add({
    content: 'The shop API listens on port 8080 behind the nginx proxy in staging',
  });
  const e = lab.memories.add({
    content: 'The shop API listens on port 8081 behind the nginx proxy in staging',
  });
  assert.notEqual(d.id, e.id, 'a changed number is a different fact');
});

test('duplicates are never looked for across spaces, projects, or among forgotten memories', () => {
  const lab = memoryLab();
  after(lab.cleanup);
  const a = lab.memories.add({ content: PNPM });
  const work = lab.memories.add({ content: PNPM, space: 'work' });
  assert.equal(work.deduplicated, false);
  assert.notEqual(work.id, a.id);
  assert.equal(work.space, 'work');
  const proj = lab.memories.add({ content: PNPM, project: '/home/dev/shop' });
  assert.equal(proj.deduplicated, false, 'a project-specific memory is not the general one');
  assert.equal(lab.memories.add({ content: PNPM, project: '/home/dev/shop/' }).id, proj.id);
  lab.memories.forget(a.id);
  const again = lab.memories.add({ content: PNPM });
  assert.equal(again.deduplicated, false, 'saying a forgotten thing again makes a new memory');
});

test('supersede: the old memory leaves normal results but --as-of shows what was valid then', () => {
  const lab = memoryLab();
  after(lab.cleanup);
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
  assert.equal(next.unit_type, 'decision', 'type carries over');
  assert.deepEqual(next.labels, ['postgres', 'perf'], 'labels carry over and merge');
  assert.equal(next.importance, 0.8);
  const was = lab.memories.get(old.id);
  assert.equal(was.status, 'superseded');
  assert.equal(was.superseded_by, next.id);
  assert.equal(was.valid_to, next.valid_from);

  const ids = (r: { hits: { id: string }[] }) => r.hits.map((h) => h.id);
  assert.deepEqual(ids(lab.memories.search('postgres pool size')), [next.id]);
  assert.deepEqual(
    lab.memories.list().memories.map((m) => m.id),
    [next.id],
  );
  const before = new Date(t0 + DAY / 2).toISOString();
  assert.deepEqual(ids(lab.memories.search('postgres pool size', { asOf: before })), [old.id]);
  assert.deepEqual(
    lab.memories.list({ asOf: before }).memories.map((m) => m.id),
    [old.id],
  );
  assert.deepEqual(
    ids(lab.memories.search('postgres pool', { asOf: new Date(lab.clock.now).toISOString() })),
    [next.id],
  );
  assert.deepEqual(
    lab.memories.list({ asOf: '2026-05-01' }).memories,
    [],
    'nothing was valid before it was recorded',
  );
  assert.deepEqual(
    lab.memories.list({ status: 'superseded' }).memories.map((m) => m.id),
    [old.id],
  );

  assert.throws(() => lab.memories.supersede(old.id, { content: 'pool size is 30' }), { code: 'CONFLICT' });
  assert.throws(() => lab.memories.update(old.id, { importance: 1 }), { code: 'CONFLICT' });
  assert.throws(() => lab.memories.supersede(next.id, { content: next.content.toUpperCase() }), {
    code: 'INVALID_INPUT',
  });
});

test('forget hides, restore brings back, purge deletes (only a forgotten memory unless forced)', () => {
  const lab = memoryLab();
  after(lab.cleanup);
  const m = lab.memories.add({ content: 'The billing cron runs at 02:00 UTC every night' });
  assert.throws(() => lab.memories.purge(m.id), { code: 'CONFLICT' });
  const f = lab.memories.forget(m.id);
  assert.equal(f.status, 'forgotten');
  assert.equal(f.changed, true);
  assert.equal(lab.memories.forget(m.id).changed, false, 'forgetting twice is harmless');
  assert.equal(lab.memories.search('billing cron').hits.length, 0);
  assert.equal(lab.memories.list().memories.length, 0);
  assert.deepEqual(
    lab.memories.list({ status: 'forgotten' }).memories.map((x) => x.id),
    [m.id],
  );
  assert.equal(lab.memories.get(m.id).status, 'forgotten', 'still readable by id');
  assert.throws(() => lab.memories.update(m.id, { importance: 1 }), { code: 'CONFLICT' });
  const r = lab.memories.restore(m.id);
  assert.equal(r.status, 'active');
  assert.deepEqual(
    lab.memories.search('billing cron').hits.map((h) => h.id),
    [m.id],
  );
  lab.memories.forget(m.id);
  assert.deepEqual(lab.memories.purge(m.id), { id: m.id, purged: true });
  assert.throws(() => lab.memories.get(m.id), { code: 'NOT_FOUND' });
  assert.equal(lab.memories.list({ status: 'all' }).memories.length, 0);

  const old = lab.memories.add({ content: 'Feature flags live in LaunchDarkly for the web app' });
  const next = lab.memories.supersede(old.id, {
    content: 'Feature flags moved to our own flags table in Postgres',
  });
  lab.memories.purge(next.id, { force: true });
  const orphan = lab.memories.get(old.id);
  assert.equal(orphan.superseded_by, null, 'no link to a purged memory is left');
  assert.equal(orphan.status, 'superseded');
});

test('search ranks by relevance, then importance, then recency; filters narrow', () => {
  const lab = memoryLab();
  after(lab.cleanup);
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
  const ids = (r: { hits: { id: string }[] }) => r.hits.map((h) => h.id);

  const r = lab.memories.search('alpha checklist');
  assert.equal(r.hits[0].id, high.id, 'same text relevance: the important one first');
  assert.deepEqual(ids(r).slice(1), [newer.id, low.id], 'same importance: the recent one first');
  assert.ok(r.hits[0].score > r.hits[1].score);
  for (const k of ['id', 'title', 'content', 'unit_type', 'labels', 'importance', 'score'])
    assert.ok(k in r.hits[0], k);

  assert.deepEqual(
    ids(lab.memories.search('alpha', { labels: ['release', 'docs'] })),
    [high.id],
    'labels: all of them',
  );
  assert.deepEqual(
    ids(lab.memories.search('alpha', { types: ['procedure', 'decision'] })),
    [low.id],
    'types: any of them',
  );
  assert.deepEqual(
    ids(lab.memories.search('alpha', { project: '/home/dev/shop' })),
    [newer.id],
    'project: this dir or below',
  );
  assert.deepEqual(ids(lab.memories.search('alpha', { since: '2026-11-01' })), [newer.id], 'event date');
  assert.deepEqual(
    ids(lab.memories.search('alpha', { until: new Date(t0 + DAY).toISOString() })).sort(),
    [low.id, high.id].sort(),
    'record date when there is no event date',
  );
  assert.deepEqual(ids(lab.memories.search('alpha -six')).includes(newer.id), false, 'exclusions');
  assert.equal(lab.memories.search('alpha', { limit: 1 }).hits.length, 1);
});

test('search stays correct past the distinctive-term threshold (common terms, selective filters)', () => {
  const lab = memoryLab();
  after(lab.cleanup);
  lab.db.transaction(() => {
    for (let i = 0; i < 420; i++)
      lab.memories.add({
        content: `Deploy note number ${i}: the deploy pipeline step ${i % 7} ran for ${i} seconds`,
        importance: 0.3,
      });
  })();
  const k8s = lab.memories.add({
    content: 'Deploy to kubernetes goes through the argo pipeline',
    importance: 0.3,
  });
  const vip = lab.memories.add({ content: 'Every deploy needs a second reviewer on Fridays', importance: 1 });
  const tiny = lab.memories.add({ content: 'Deploy the side project by hand from a laptop', space: 'tiny' });
  assert.equal(lab.memories.search('deploy kubernetes').hits[0].id, k8s.id, 'the distinctive term decides');
  assert.equal(lab.memories.search('deploy').hits[0].id, vip.id, 'only common terms: importance decides');
  assert.equal(lab.memories.search('deploy pipeline').hits.length, 10);
  assert.deepEqual(
    lab.memories.search('deploy', { space: 'tiny' }).hits.map((h) => h.id),
    [tiny.id],
    'a small space',
  );
  assert.equal(lab.memories.search('deploy', { allSpaces: true, limit: 100 }).hits.length, 100);
});

test('spaces isolate: a search in one space never returns another space unless asked', () => {
  const lab = memoryLab({ mappings: { '/home/dev/client': 'client' } });
  after(lab.cleanup);
  const d = lab.memories.add({ content: 'Invoices are generated on the first of the month' });
  const c = lab.memories.add({
    content: 'Invoices for the client are generated weekly',
    project: '/home/dev/client/api',
  });
  assert.equal(c.space, 'client', 'the project mapping picks the space');
  const ids = (r: { hits: { id: string }[] }) => r.hits.map((h) => h.id);
  assert.deepEqual(ids(lab.memories.search('invoices generated')), [d.id]);
  assert.deepEqual(ids(lab.memories.search('invoices generated', { space: 'client' })), [c.id]);
  assert.deepEqual(ids(lab.memories.search('invoices generated', { cwd: '/home/dev/client' })), [c.id]);
  assert.deepEqual(
    ids(lab.memories.search('invoices generated', { allSpaces: true })).sort(),
    [c.id, d.id].sort(),
  );
  assert.deepEqual(
    lab.memories.list({ space: 'client' }).memories.map((m) => m.id),
    [c.id],
  );
  assert.equal(lab.memories.get(c.id).id, c.id, 'an id is an explicit ask, in any space');
  assert.throws(() => lab.memories.search('x', { space: 'Client!' }), { code: 'INVALID_INPUT' });
});

test('secrets are redacted before storage, in content, title and source', () => {
  const lab = memoryLab();
  after(lab.cleanup);
  const key = `sk-proj-${'a1B2c3D4e5'.repeat(4)}`;
  const m = lab.memories.add({
    content: `The staging OpenAI key is OPENAI_API_KEY=${key} (rotate monthly)`,
    title: `key ${key}`,
    source: 'https://admin:hunter2pass@example.com/wiki/keys',
  });
  assert.doesNotMatch(JSON.stringify(m), /a1B2c3D4e5|hunter2pass/);
  assert.match(m.content, /\[REDACTED:openai-key\]/);
  assert.match(m.provenance!.source!, /\[REDACTED:url-password\]/);
  assert.equal(lab.memories.search('a1B2c3D4e5').hits.length, 0);
  assert.equal(lab.memories.search('rotate monthly').hits[0].id, m.id);
});

test('bad input is refused with INVALID_INPUT naming the problem, and nothing is written', () => {
  const lab = memoryLab();
  after(lab.cleanup);
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
  assert.throws(() => lab.memories.get('nope'), { code: 'NOT_FOUND' });
  const m = lab.memories.add({ content: 'ok then' });
  assert.throws(() => lab.memories.update(m.id, {}), /Nothing to update/);
  assert.throws(() => lab.memories.update(m.id, { steps: 'x-y', thread: 't' }), { code: 'INVALID_INPUT' });
});

test('update corrects in place; a derived title follows the content', () => {
  const lab = memoryLab();
  after(lab.cleanup);
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
  assert.equal(lab.memories.search('eslint').hits.length, 0, 'the index follows the content');
  assert.equal(lab.memories.search('biome').hits[0].id, m.id);
  assert.equal(lab.memories.update(m.id, { project: '/x/y', eventStart: '2026-01-01' }).project, '/x/y');
  const cleared = lab.memories.update(m.id, { project: '', eventStart: null });
  assert.equal(cleared.project, null);
  assert.equal(cleared.event_start, null);
});

test('provenance: threads are checked against the transcript store; links resolve', () => {
  const h = tempHome();
  after(h.cleanup);
  const sid = '7a7a7a7a-1111-4222-8333-444444444444';
  h.write(
    claudePath(sid),
    `${[claudeLine(sid, 'user', 'Which queue do we use?'), claudeLine(sid, 'assistant', 'We decided on SQS over RabbitMQ.')].join('\n')}\n`,
  );
  const engine = h.engine();
  after(() => engine.close());
  engine.transcripts.index();
  const thread = `claude-code:${sid}`;
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
  assert.equal(engine.memories.get(`tapedeck://memory/${m.id}`).id, m.id);
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
  assert.deepEqual(file.provenance, {
    thread: null,
    step_from: null,
    step_to: null,
    link: null,
    source: 'docs/runbooks/sqs.md',
  });
});
