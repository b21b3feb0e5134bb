/** Export and import through the engine: lossless round trip, idempotence, all-or-nothing, conflicts. */
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, test } from 'node:test';
import type { Engine } from '../src/app/engine.js';
import { claudeLine, claudePath, type TempHome, tempHome } from './support/home.js';
import { type Fixture, populate } from './support/knowledge-fixture.js';

function home(): TempHome & { e: Engine } {
  const h = tempHome();
  const e = h.engine();
  after(async () => {
    e.close();
    h.cleanup();
  });
  return { ...h, e };
}

/** Every file of a folder, path → text, the manifest's created_at blanked. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const n of readdirSync(d).sort()) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else out.set(relative(dir, p), readFileSync(p, 'utf8'));
    }
  };
  walk(dir);
  const m = out.get('manifest.json');
  if (m) out.set('manifest.json', m.replace(/"created_at": "[^"]+"/, '"created_at": "…"'));
  return out;
}

async function failure(fn: () => unknown): Promise<{ code: string; message: string }> {
  try {
    await fn();
  } catch (err) {
    return { code: (err as { code: string }).code, message: (err as Error).message };
  }
  assert.fail('expected an error');
}

const lines = (dir: string, file: string) =>
  readFileSync(join(dir, file), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
const writeLines = (dir: string, file: string, records: unknown[]) =>
  writeFileSync(join(dir, file), records.map((r) => `${JSON.stringify(r)}\n`).join(''));

async function exported(): Promise<{ a: TempHome & { e: Engine }; fx: Fixture; dir: string }> {
  const a = home();
  const fx = await populate(a.e);
  const dir = join(a.home, 'export');
  await a.e.portability.export(dir, { allSpaces: true });
  return { a, fx, dir };
}

test('round trip: export, import into an empty home, export again: the same bytes', async () => {
  const { a, dir } = await exported();
  const b = home();
  const first = await b.e.portability.import(dir);
  assert.deepEqual(first.conflicts, []);
  assert.deepEqual(first.created, {
    memories: 5,
    rules: 3,
    skills: 3,
    skill_versions: 4,
    wiki_pages: 4,
    wiki_versions: 5,
    threads: 2,
    messages: 4,
    working_memory_edits: 1,
  });
  const again = join(b.home, 'again');
  await b.e.portability.export(again, { allSpaces: true });
  const x = snapshot(dir);
  const y = snapshot(again);
  assert.deepEqual([...y.keys()], [...x.keys()]);
  for (const [file, text] of x) assert.equal(y.get(file), text, file);
  assert.ok(x.has('skills/default/deploy-app/SKILL.md'));
  assert.ok(x.has('wiki/default/architecture/payments.md'));
  assert.ok(!x.has('wiki/default/scratch.md'), 'a removed page has no Markdown copy');
  assert.ok(x.has('threads/chat-42.jsonl'));
  // And the original store exports the same again (nothing there changed).
  const twice = join(a.home, 'twice');
  await a.e.portability.export(twice, { allSpaces: true });
  assert.deepEqual(snapshot(twice), x);
});

test('importing twice changes nothing', async () => {
  const { dir } = await exported();
  const b = home();
  await b.e.portability.import(dir);
  const second = await b.e.portability.import(dir);
  assert.ok(
    Object.values(second.created).every((n) => n === 0),
    JSON.stringify(second.created),
  );
  assert.equal(second.unchanged.memories, 5);
  assert.equal(second.unchanged.threads, 2);
  assert.equal(second.unchanged.working_memory_edits, 1);
  assert.deepEqual(second.conflicts, []);
});

test('what was restored works: as-of, tombstones, badges, wiki history, idempotent thread appends', async () => {
  const { a, fx, dir } = await exported();
  const b = home();
  await b.e.portability.import(dir);
  const e = b.e;
  assert.equal(e.memories.get(fx.memory).provenance?.link, 'tapedeck://thread/chat-42#0');
  assert.equal(e.memories.search('Postgres replication').hits[0]?.id, fx.memory);
  assert.equal(e.memories.get(fx.superseded).superseded_by, fx.successor);
  assert.deepEqual(e.memories.get(fx.successor).supersedes, [fx.superseded]);
  const asOf = a.e.memories.get(fx.superseded).valid_from;
  assert.deepEqual(
    e.memories.list({ asOf, labels: 'cache' }).memories.map((m) => m.id),
    [fx.superseded],
  );
  assert.deepEqual(
    e.memories.list({ labels: 'cache' }).memories.map((m) => m.id),
    [fx.successor],
  );
  assert.equal(e.memories.get(fx.forgotten).status, 'forgotten');
  assert.equal(e.memories.restore(fx.forgotten).status, 'active');
  assert.equal(e.memories.get(fx.workMemory).space, 'work');

  const skill = e.skills.show('deploy-app');
  const original = a.e.skills.show('deploy-app');
  assert.equal(skill.badge, original.badge);
  assert.deepEqual(skill.trust, original.trust);
  assert.equal(skill.pending_proposals.length, 1);
  assert.equal(
    e.skills.render('deploy-app', { version: 1 }),
    a.e.skills.render('deploy-app', { version: 1 }),
  );
  assert.equal(
    e.skills.list({ includeArchived: true }).find((s) => s.name === 'old-skill')?.stage,
    'archived',
  );

  assert.equal(e.wiki.history('architecture/payments.md').versions.length, 2);
  assert.notEqual(e.wiki.history('scratch.md').removed_at, null);

  const replay = e.savedThreads.append({
    thread: 'chat-42',
    idempotencyKey: 'append-1',
    messages: [{ role: 'user', content: 'x' }],
  });
  assert.equal(replay.replayed, true);
  const dup = e.savedThreads.append({
    thread: 'chat-42',
    messages: [{ role: 'user', content: 'again', external_id: 'm3' }],
  });
  assert.equal(dup.messages_added, 0);
  assert.equal(e.savedThreads.get('chat-42').source_app, 'cursor');
  assert.equal(e.store.getThread('work-chat')?.space, 'work');

  const wm = await e.workingMemory.read({ date: lines(dir, 'working-memory.jsonl')[0].day });
  assert.ok(wm.sections.find((s) => s.name === 'open-loops')?.edited);
});

test('export of one space: its records, and only its space-scoped rules', async () => {
  const a = home();
  const fx = await populate(a.e);
  const dir = join(a.home, 'work-only');
  const r = await a.e.portability.export(dir, { space: 'work' });
  assert.deepEqual(r.manifest.spaces, ['work']);
  assert.deepEqual(
    lines(dir, 'memories.jsonl').map((m) => m.id),
    [fx.workMemory],
  );
  const rules = lines(dir, 'rules.jsonl').map((x) => x.scope);
  assert.ok(rules.includes('space:work'));
  assert.ok(rules.includes('global'));
  assert.deepEqual(
    lines(dir, 'skills.jsonl').map((s) => s.name),
    ['work-skill'],
  );
  assert.deepEqual(readdirSync(join(dir, 'threads')), ['work-chat.jsonl']);
  const def = join(a.home, 'default-only');
  await a.e.portability.export(def);
  assert.ok(!lines(def, 'rules.jsonl').some((x) => x.scope === 'space:work'));
  assert.equal(
    (await failure(() => a.e.portability.export(join(a.home, 'x'), { space: 'work', allSpaces: true }))).code,
    'INVALID_INPUT',
  );
});

test('--space moves a one-space folder into another space; a many-space folder refuses', async () => {
  const a = home();
  const fx = await populate(a.e);
  const dir = join(a.home, 'work-only');
  await a.e.portability.export(dir, { space: 'work' });
  const b = home();
  const r = await b.e.portability.import(dir, { space: 'lab' });
  assert.equal(r.created.memories, 1);
  assert.equal(b.e.memories.get(fx.workMemory).space, 'lab');
  assert.ok((await b.e.rules.list({ allSpaces: true })).rules.some((x) => x.scope === 'space:lab'));
  assert.deepEqual(
    b.e.skills.list({ space: 'lab' }).map((s) => s.name),
    ['work-skill'],
  );
  assert.equal(b.e.store.getThread('work-chat')?.space, 'lab');
  const all = join(a.home, 'all');
  await a.e.portability.export(all, { allSpaces: true });
  assert.match(
    (await failure(() => home().e.portability.import(all, { space: 'lab' }))).message,
    /several spaces \(default, work\)/,
  );
});

test('dry run validates and compares, writing nothing', async () => {
  const { dir } = await exported();
  const b = home();
  const r = await b.e.portability.import(dir, { dryRun: true });
  assert.equal(r.dry_run, true);
  assert.equal(r.created.memories, 5);
  assert.equal(b.e.memories.list({ allSpaces: true, status: 'all' }).memories.length, 0);
  assert.equal(b.e.savedThreads.list().length, 0);
});

test('bad records: every problem named by file and line, and nothing imported', async () => {
  const { dir } = await exported();
  const mem = lines(dir, 'memories.jsonl');
  mem[1].importance = 7;
  writeLines(dir, 'memories.jsonl', mem);
  writeFileSync(join(dir, 'rules.jsonl'), `${readFileSync(join(dir, 'rules.jsonl'), 'utf8')}{not json\n`);
  const skills = lines(dir, 'skills.jsonl');
  skills[0].versions[0].head = 'no front matter';
  writeLines(dir, 'skills.jsonl', skills);
  const t = lines(dir, 'threads/chat-42.jsonl');
  writeLines(dir, 'threads/chat-42.jsonl', [t[1], t[0], ...t.slice(2)]);
  const b = home();
  const f = await failure(() => b.e.portability.import(dir));
  assert.equal(f.code, 'INVALID_INPUT');
  assert.match(f.message, /memories\.jsonl:2: "importance" must be from 0 to 1, got 7/);
  assert.match(f.message, /rules\.jsonl:4: not JSON/);
  assert.match(f.message, /skills\.jsonl:1: .*front matter/);
  assert.match(f.message, /threads\/chat-42\.jsonl:1: the first line must be the thread/);
  assert.equal(b.e.memories.list({ allSpaces: true, status: 'all' }).memories.length, 0);
  assert.equal((await b.e.rules.list({ allSpaces: true })).rules.length, 0);
  assert.equal(b.e.savedThreads.list().length, 0);
});

test('a truncated file, a duplicate, a dangling supersede link, a newer format, no manifest', async () => {
  const { dir } = await exported();
  const b = home();
  const mem = lines(dir, 'memories.jsonl');
  writeLines(dir, 'memories.jsonl', mem.slice(0, 3));
  assert.match(
    (await failure(() => b.e.portability.import(dir))).message,
    /manifest\.json: it counts 5 memories, the folder holds 3/,
  );
  writeLines(dir, 'memories.jsonl', [...mem.slice(0, 4), mem[0]]);
  assert.match(
    (await failure(() => b.e.portability.import(dir))).message,
    /memories\.jsonl:5: memory .* appears twice \(first at memories\.jsonl:1\)/,
  );
  const dangling = mem.filter((m) => m.status !== 'active' || m.superseded_by === null);
  const cut = dangling.filter((m) => !mem.some((x) => x.superseded_by === m.id));
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  writeLines(dir, 'memories.jsonl', cut);
  writeFileSync(
    join(dir, 'manifest.json'),
    JSON.stringify({ ...manifest, counts: { ...manifest.counts, memories: cut.length } }),
  );
  assert.match(
    (await failure(() => b.e.portability.import(dir))).message,
    /superseded_by .* is neither in the folder nor in this store/,
  );
  assert.equal(b.e.memories.list({ allSpaces: true, status: 'all' }).memories.length, 0);
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, format_version: 99 }));
  assert.equal((await failure(() => b.e.portability.import(dir))).code, 'UNSUPPORTED');
  const empty = join(b.home, 'empty');
  mkdirSync(empty);
  assert.match((await failure(() => b.e.portability.import(empty))).message, /has no manifest\.json/);
  assert.equal((await failure(() => b.e.portability.import(join(b.home, 'missing')))).code, 'INVALID_INPUT');
});

test('conflicts: a record that differs here is kept as it is and reported; the rest is imported', async () => {
  const { fx, dir } = await exported();
  const b = home();
  await b.e.portability.import(dir);
  b.e.memories.update(fx.memory, { importance: 0.1 });
  b.e.wiki.write('runbooks/deploy.md', '# Deploy runbook\n\nChanged here.\n');
  const mem = lines(dir, 'memories.jsonl');
  const extra = {
    ...mem[0],
    id: '11111111-2222-4333-8444-555555555555',
    content: 'A memory only in the folder',
  };
  writeLines(dir, 'memories.jsonl', [...mem, extra]);
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  manifest.counts.memories += 1;
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  const r = await b.e.portability.import(dir);
  assert.equal(r.created.memories, 1);
  assert.deepEqual(
    r.conflicts.map((c) => [c.kind, c.key, c.file]),
    [
      ['memory', fx.memory, 'memories.jsonl'],
      ['wiki', 'default/runbooks/deploy.md', 'wiki.jsonl'],
    ],
  );
  assert.equal(b.e.memories.get(fx.memory).importance, 0.1, 'kept as it is here');
  assert.match(b.e.wiki.read('runbooks/deploy.md').content, /Changed here/);
});

test('export refuses a non-empty folder; secrets in a folder are redacted on import', async () => {
  const a = home();
  a.e.memories.add({ content: 'Plain memory' });
  const dir = join(a.home, 'out');
  mkdirSync(dir);
  writeFileSync(join(dir, 'keep.txt'), 'mine');
  assert.equal((await failure(() => a.e.portability.export(dir))).code, 'CONFLICT');
  assert.equal(readFileSync(join(dir, 'keep.txt'), 'utf8'), 'mine');
  const fresh = join(a.home, 'fresh');
  mkdirSync(fresh);
  await a.e.portability.export(fresh);
  const mem = lines(fresh, 'memories.jsonl');
  mem[0].content = 'Deploy key AKIAZ7Q2M4N8P1R5T3V6 is for CI';
  writeLines(fresh, 'memories.jsonl', mem);
  const b = home();
  const r = await b.e.portability.import(fresh);
  assert.ok(r.redactions >= 1);
  const stored = b.e.memories.get(mem[0].id).content;
  assert.ok(!stored.includes('AKIAZ7Q2M4N8P1R5T3V6'), stored);
  assert.match(stored, /\[REDACTED:/);
});

test('indexed transcripts are not exported (they are re-read from the agents’ files)', async () => {
  const a = home();
  a.write(claudePath('sess-1'), `${claudeLine('sess-1', 'user', 'Index me please')}\n`);
  a.e.transcripts.index();
  assert.equal(a.e.transcripts.threads().length, 1);
  a.e.savedThreads.import({ id: 'saved-1', messages: [{ role: 'user', content: 'Saved one' }] });
  const dir = join(a.home, 'out');
  const r = await a.e.portability.export(dir);
  assert.equal(r.manifest.counts.threads, 1);
  assert.deepEqual(readdirSync(join(dir, 'threads')), ['saved-1.jsonl']);
});
