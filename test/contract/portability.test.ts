/**
 * Portability and the virtual filesystem across backends. On each backend: a lossless round trip,
 * idempotence, what was restored works, one-space exports and --space, dry runs, bad folders named
 * by file and line with nothing imported, conflicts kept and reported, redaction, an import whose
 * last write fails leaving nothing. Across them: the same knowledge populated on SQLite and on
 * PostgreSQL exports the same files; a SQLite export imported into PostgreSQL exports again byte
 * for byte (how `tapedeck migrate` moves a store), and back; and the fs tree (ls, cat, stat, find)
 * over /memories, /threads, /skills, /rules, /wiki and /working-memory reads the same on both.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, type TestContext, test } from 'node:test';
import Database from 'better-sqlite3';
import type { Engine } from '../../src/app/engine.js';
import type { BackendKind } from '../../src/ports/stores.js';
import { parseDatabaseUrl } from '../../src/storage/postgres/open.js';
import { connectPgSync } from '../../src/storage/postgres/sync-client.js';
import { BACKENDS, backendHome, POSTGRES } from '../support/backends.js';
import { claudeLine, claudePath, type TempHome } from '../support/home.js';
import { type Fixture, populate } from '../support/knowledge-fixture.js';
import { snapshot } from '../support/snapshot.js';

function home(kind: BackendKind): TempHome & { e: Engine } {
  const h = backendHome(kind);
  const e = h.engine();
  after(async () => {
    e.close();
    h.cleanup();
  });
  return { ...h, e };
}

function assertSameFiles(actual: Map<string, string>, expected: Map<string, string>) {
  assert.deepEqual([...actual.keys()], [...expected.keys()]);
  for (const [file, text] of expected) assert.equal(actual.get(file), text, file);
}

/** Ids the same on every run: `crypto.randomUUID` counts from 1 while the test populates. */
function countedIds(t: TestContext) {
  let n = 0;
  t.mock.method(globalThis.crypto, 'randomUUID', () => {
    n++;
    return `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}` as `${string}-${string}-${string}-${string}-${string}`;
  });
  return () => {
    n = 0;
  };
}

/** Populated with the knowledge fixture (ids counted from 1 when asked) and exported, all spaces. */
async function populatedExport(
  kind: BackendKind,
  restartIds?: () => void,
): Promise<{ h: TempHome & { e: Engine }; fx: Fixture; dir: string }> {
  const h = home(kind);
  restartIds?.();
  const fx = await populate(h.e);
  const dir = join(h.home, 'export');
  await h.e.portability.export(dir, { allSpaces: true });
  return { h, fx, dir };
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

const ISO = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g;

const EXPECTED_CREATED = {
  memories: 5,
  rules: 3,
  skills: 3,
  skill_versions: 4,
  wiki_pages: 4,
  wiki_versions: 5,
  threads: 2,
  messages: 4,
  working_memory_edits: 1,
};

for (const b of BACKENDS) {
  const opts = { skip: b.skip };

  test(
    `round trip: export, import into an empty home, export again: the same bytes (${b.name})`,
    opts,
    async (t) => {
      const { h, dir } = await populatedExport(b.name, countedIds(t));
      const c = home(b.name);
      const first = await c.e.portability.import(dir);
      assert.deepEqual(first.conflicts, []);
      assert.deepEqual(first.created, EXPECTED_CREATED);
      const again = join(c.home, 'again');
      await c.e.portability.export(again, { allSpaces: true });
      const x = snapshot(dir);
      assertSameFiles(snapshot(again), x);
      assert.ok(x.has('skills/default/deploy-app/SKILL.md'));
      assert.ok(x.has('wiki/default/architecture/payments.md'));
      assert.ok(!x.has('wiki/default/scratch.md'), 'a removed page has no Markdown copy');
      assert.ok(x.has('threads/chat-42.jsonl'));
      // And the original store exports the same again (nothing there changed).
      const twice = join(h.home, 'twice');
      await h.e.portability.export(twice, { allSpaces: true });
      assertSameFiles(snapshot(twice), x);
    },
  );

  test(`importing twice changes nothing (${b.name})`, opts, async () => {
    const { dir } = await populatedExport(b.name);
    const c = home(b.name);
    await c.e.portability.import(dir);
    const second = await c.e.portability.import(dir);
    assert.ok(
      Object.values(second.created).every((n) => n === 0),
      JSON.stringify(second.created),
    );
    assert.equal(second.unchanged.memories, 5);
    assert.equal(second.unchanged.threads, 2);
    assert.equal(second.unchanged.working_memory_edits, 1);
    assert.deepEqual(second.conflicts, []);
  });

  test(
    `what was restored works: as-of, tombstones, badges, wiki history, idempotent thread appends (${b.name})`,
    opts,
    async () => {
      const { h: a, fx, dir } = await populatedExport(b.name);
      const c = home(b.name);
      await c.e.portability.import(dir);
      const e = c.e;
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

      assert.equal((await e.wiki.history('architecture/payments.md')).versions.length, 2);
      assert.notEqual((await e.wiki.history('scratch.md')).removed_at, null);

      // Idempotency records replay, external ids deduplicate.
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
    },
  );

  test(`export of one space: its records, and only its space-scoped rules (${b.name})`, opts, async () => {
    const a = home(b.name);
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
      (await failure(() => a.e.portability.export(join(a.home, 'x'), { space: 'work', allSpaces: true })))
        .code,
      'INVALID_INPUT',
    );
  });

  test(
    `--space moves a one-space folder into another space; a many-space folder refuses (${b.name})`,
    opts,
    async () => {
      const a = home(b.name);
      const fx = await populate(a.e);
      const dir = join(a.home, 'work-only');
      await a.e.portability.export(dir, { space: 'work' });
      const c = home(b.name);
      const r = await c.e.portability.import(dir, { space: 'lab' });
      assert.equal(r.created.memories, 1);
      assert.equal(c.e.memories.get(fx.workMemory).space, 'lab');
      assert.ok((await c.e.rules.list({ allSpaces: true })).rules.some((x) => x.scope === 'space:lab'));
      assert.deepEqual(
        c.e.skills.list({ space: 'lab' }).map((s) => s.name),
        ['work-skill'],
      );
      assert.equal(c.e.store.getThread('work-chat')?.space, 'lab');
      const all = join(a.home, 'all');
      await a.e.portability.export(all, { allSpaces: true });
      assert.match(
        (await failure(() => home(b.name).e.portability.import(all, { space: 'lab' }))).message,
        /several spaces \(default, work\)/,
      );
    },
  );

  test(`dry run validates and compares, writing nothing (${b.name})`, opts, async () => {
    const { dir } = await populatedExport(b.name);
    const c = home(b.name);
    const r = await c.e.portability.import(dir, { dryRun: true });
    assert.equal(r.dry_run, true);
    assert.equal(r.created.memories, 5);
    assert.equal(c.e.memories.list({ allSpaces: true, status: 'all' }).memories.length, 0);
    assert.equal(c.e.savedThreads.list().length, 0);
  });

  test(
    `bad records: every problem named by file and line, and nothing imported (${b.name})`,
    opts,
    async () => {
      const { dir } = await populatedExport(b.name);
      const mem = lines(dir, 'memories.jsonl');
      mem[1].importance = 7;
      writeLines(dir, 'memories.jsonl', mem);
      writeFileSync(join(dir, 'rules.jsonl'), `${readFileSync(join(dir, 'rules.jsonl'), 'utf8')}{not json\n`);
      const skills = lines(dir, 'skills.jsonl');
      skills[0].versions[0].head = 'no front matter';
      writeLines(dir, 'skills.jsonl', skills);
      const t = lines(dir, 'threads/chat-42.jsonl');
      writeLines(dir, 'threads/chat-42.jsonl', [t[1], t[0], ...t.slice(2)]);
      const c = home(b.name);
      const f = await failure(() => c.e.portability.import(dir));
      assert.equal(f.code, 'INVALID_INPUT');
      assert.match(f.message, /memories\.jsonl:2: "importance" must be from 0 to 1, got 7/);
      assert.match(f.message, /rules\.jsonl:4: not JSON/);
      assert.match(f.message, /skills\.jsonl:1: .*front matter/);
      assert.match(f.message, /threads\/chat-42\.jsonl:1: the first line must be the thread/);
      assert.equal(c.e.memories.list({ allSpaces: true, status: 'all' }).memories.length, 0);
      assert.equal((await c.e.rules.list({ allSpaces: true })).rules.length, 0);
      assert.equal(c.e.savedThreads.list().length, 0);
    },
  );

  test(
    `a truncated file, a duplicate, a dangling supersede link, a newer format, no manifest (${b.name})`,
    opts,
    async () => {
      const { dir } = await populatedExport(b.name);
      const c = home(b.name);
      const mem = lines(dir, 'memories.jsonl');
      writeLines(dir, 'memories.jsonl', mem.slice(0, 3));
      assert.match(
        (await failure(() => c.e.portability.import(dir))).message,
        /manifest\.json: it counts 5 memories, the folder holds 3/,
      );
      writeLines(dir, 'memories.jsonl', [...mem.slice(0, 4), mem[0]]);
      assert.match(
        (await failure(() => c.e.portability.import(dir))).message,
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
        (await failure(() => c.e.portability.import(dir))).message,
        /superseded_by .* is neither in the folder nor in this store/,
      );
      assert.equal(c.e.memories.list({ allSpaces: true, status: 'all' }).memories.length, 0);
      writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, format_version: 99 }));
      assert.equal((await failure(() => c.e.portability.import(dir))).code, 'UNSUPPORTED');
      const empty = join(c.home, 'empty');
      mkdirSync(empty);
      assert.match((await failure(() => c.e.portability.import(empty))).message, /has no manifest\.json/);
      assert.equal(
        (await failure(() => c.e.portability.import(join(c.home, 'missing')))).code,
        'INVALID_INPUT',
      );
    },
  );

  test(
    `conflicts: a record that differs here is kept as it is and reported; the rest is imported (${b.name})`,
    opts,
    async () => {
      const { fx, dir } = await populatedExport(b.name);
      const c = home(b.name);
      await c.e.portability.import(dir);
      c.e.memories.update(fx.memory, { importance: 0.1 });
      await c.e.wiki.write('runbooks/deploy.md', '# Deploy runbook\n\nChanged here.\n');
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
      const r = await c.e.portability.import(dir);
      assert.equal(r.created.memories, 1);
      assert.deepEqual(
        r.conflicts.map((x) => [x.kind, x.key, x.file]),
        [
          ['memory', fx.memory, 'memories.jsonl'],
          ['wiki', 'default/runbooks/deploy.md', 'wiki.jsonl'],
        ],
      );
      assert.equal(c.e.memories.get(fx.memory).importance, 0.1, 'kept as it is here');
      assert.match((await c.e.wiki.read('runbooks/deploy.md')).content, /Changed here/);
    },
  );

  test(
    `export refuses a non-empty folder; secrets in a folder are redacted on import (${b.name})`,
    opts,
    async () => {
      const a = home(b.name);
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
      const c = home(b.name);
      const r = await c.e.portability.import(fresh);
      assert.ok(r.redactions >= 1);
      const stored = c.e.memories.get(mem[0].id).content;
      assert.ok(!stored.includes('AKIAZ7Q2M4N8P1R5T3V6'), stored);
      assert.match(stored, /\[REDACTED:/);
    },
  );

  test(
    `indexed transcripts are not exported (they are re-read from the agents’ files) (${b.name})`,
    opts,
    async () => {
      const a = home(b.name);
      a.write(claudePath('sess-1'), `${claudeLine('sess-1', 'user', 'Index me please')}\n`);
      a.e.transcripts.index();
      assert.equal(a.e.transcripts.threads().length, 1);
      a.e.savedThreads.import({ id: 'saved-1', messages: [{ role: 'user', content: 'Saved one' }] });
      const dir = join(a.home, 'out');
      const r = await a.e.portability.export(dir);
      assert.equal(r.manifest.counts.threads, 1);
      assert.deepEqual(readdirSync(join(dir, 'threads')), ['saved-1.jsonl']);
    },
  );
}

/** Run `text` on the home's own database, beside its engine (a real second connection). */
function onDatabase(h: TempHome & { e: Engine }, kind: BackendKind, text: string): void {
  if (kind === 'sqlite') {
    const db = new Database(h.e.stores.location);
    try {
      db.exec(text);
    } finally {
      db.close();
    }
    return;
  }
  const { url, schema } = parseDatabaseUrl(h.env.TAPEDECK_DATABASE_URL!);
  const pg = connectPgSync(url, { searchPath: schema });
  try {
    pg.exec(text);
  } finally {
    pg.close();
  }
}

const REFUSE_RULES = {
  sqlite: `CREATE TRIGGER refuse_rules BEFORE INSERT ON rules BEGIN SELECT RAISE(ABORT, 'rules refused'); END;`,
  postgres: `CREATE FUNCTION refuse_rules() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'rules refused'; END $$;
    CREATE TRIGGER refuse_rules BEFORE INSERT ON rules FOR EACH ROW EXECUTE FUNCTION refuse_rules();`,
};
const ALLOW_RULES = {
  sqlite: 'DROP TRIGGER refuse_rules;',
  postgres: 'DROP TRIGGER refuse_rules ON rules; DROP FUNCTION refuse_rules();',
};

for (const b of BACKENDS) {
  test(`an import whose last write (the rules) fails leaves nothing behind, then imports whole (${b.name})`, {
    skip: b.skip,
  }, async (t) => {
    const { dir } = await populatedExport(b.name, countedIds(t));
    const c = home(b.name);
    assert.deepEqual((await c.e.rules.list()).rules, []); // opens the store: the tables exist
    onDatabase(c, b.name, REFUSE_RULES[b.name]);
    await assert.rejects(c.e.portability.import(dir), /rules refused/);
    // Nothing of the memories, skills, wiki, threads or working memory written before the rules stayed.
    const dry = await c.e.portability.import(dir, { dryRun: true });
    assert.deepEqual(dry.created, EXPECTED_CREATED);
    assert.deepEqual(dry.conflicts, []);
    onDatabase(c, b.name, ALLOW_RULES[b.name]);
    const done = await c.e.portability.import(dir);
    assert.deepEqual(done.created, EXPECTED_CREATED);
    assert.deepEqual(done.conflicts, []);
  });
}

test('the same knowledge populated on SQLite and PostgreSQL exports the same files', {
  skip: POSTGRES.skip,
}, async (t) => {
  const restart = countedIds(t);
  const lite = snapshot((await populatedExport('sqlite', restart)).dir);
  const pg = snapshot((await populatedExport('postgres', restart)).dir);
  // Ids are counted, so only the wall-clock times may differ between the two runs.
  // Records kept oldest first (idempotency requests) tie on their millisecond in one run and not
  // in the other, so once times are blanked their order is not comparable: sort those lines.
  const sortRequests = (text: string) => {
    const lines = text.split('\n');
    const requests = lines.filter((l) => l.startsWith('{"type":"request"')).sort();
    let i = 0;
    return lines.map((l) => (l.startsWith('{"type":"request"') ? requests[i++]! : l)).join('\n');
  };
  const neutral = (m: Map<string, string>) =>
    new Map([...m].map(([k, v]) => [k, sortRequests(v.replace(ISO, '<time>'))]));
  assertSameFiles(neutral(pg), neutral(lite));
  assert.ok(lite.has('threads/chat-42.jsonl') && lite.has('threads/work-chat.jsonl'));
  assert.ok(lite.has('skills/default/deploy-app/SKILL.md'));
});

test('SQLite → PostgreSQL → SQLite: every export byte-identical (what `tapedeck migrate` relies on)', {
  skip: POSTGRES.skip,
}, async (t) => {
  const { dir } = await populatedExport('sqlite', countedIds(t));
  const pg = home('postgres');
  const r = await pg.e.portability.import(dir);
  assert.deepEqual(r.conflicts, []);
  assert.deepEqual(r.created, EXPECTED_CREATED);
  const fromPg = join(pg.home, 'from-pg');
  await pg.e.portability.export(fromPg, { allSpaces: true });
  const original = snapshot(dir);
  assertSameFiles(snapshot(fromPg), original);

  const back = home('sqlite');
  await back.e.portability.import(fromPg);
  const fromBack = join(back.home, 'from-sqlite');
  await back.e.portability.export(fromBack, { allSpaces: true });
  assertSameFiles(snapshot(fromBack), original);

  // Importing the same folder into PostgreSQL again changes nothing.
  const twice = await pg.e.portability.import(dir);
  assert.ok(
    Object.values(twice.created).every((n) => n === 0),
    JSON.stringify(twice.created),
  );
  assert.deepEqual(twice.conflicts, []);
});

/** The fs tree read through every verb: each folder listed (long), each file's text and stat. */
async function readTree(e: Engine): Promise<unknown[]> {
  const out: unknown[] = [];
  const visit = async (path: string, depth: number) => {
    const listing = await e.fs.ls(path, { long: true, max: 1000 });
    out.push(['ls', listing]);
    for (const entry of listing.entries) {
      if (entry.kind === 'dir') {
        if (depth < 6) await visit(entry.path, depth + 1);
      } else {
        out.push(['cat', await e.fs.cat(entry.path)]);
        out.push(['stat', await e.fs.stat(entry.path)]);
      }
    }
  };
  await visit('/', 0);
  for (const [path, opts] of [
    ['/', { name: '*.md', type: 'file' }],
    ['/', { type: 'dir' }],
    ['/threads', { name: 'chat-*' }],
    ['/memories', { name: '*%*' }],
    ['/wiki', { name: '*_*' }],
  ] as const)
    out.push(['find', path, await e.fs.find(path, { ...opts, max: 1000 })]);
  out.push(['cat-window', await e.fs.cat('/threads/by-id/chat-42.md', { lines: '2-4' })]);
  out.push(['spaces', e.stores.catalog.spaces()]);
  return out;
}

test('the fs tree reads the same on both backends over the same knowledge', {
  skip: POSTGRES.skip,
}, async (t) => {
  const { dir } = await populatedExport('sqlite', countedIds(t));
  const lite = home('sqlite');
  const pg = home('postgres');
  await lite.e.portability.import(dir);
  await pg.e.portability.import(dir);
  // Today's briefing is generated as it is read, stamped by the wall clock: only that time differs.
  const neutral = (tree: unknown[]) =>
    tree.map((x) => {
      const json = JSON.stringify(x);
      return json.includes('/working-memory/today') ? JSON.parse(json.replace(ISO, '<generated>')) : x;
    });
  const a = neutral(await readTree(lite.e));
  const c = neutral(await readTree(pg.e));
  assert.equal(c.length, a.length);
  for (let i = 0; i < a.length; i++) assert.deepEqual(c[i], a[i], JSON.stringify(a[i]).slice(0, 200));
  // The walk covered every mount.
  const listed = new Set(
    a.flatMap((x) => ((x as unknown[])[0] === 'ls' ? [((x as unknown[])[1] as { path: string }).path] : [])),
  );
  for (const mount of ['/memories', '/threads', '/skills', '/rules', '/wiki', '/working-memory'])
    assert.ok(listed.has(mount), mount);
  assert.ok(listed.has('/memories/by-label') && listed.has('/threads/by-date'));
});
