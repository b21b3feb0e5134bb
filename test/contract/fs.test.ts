/**
 * The virtual filesystem (`engine.fs`) on every backend: the scenarios of test/fs.test.ts — every
 * verb, every mount (/memories, /threads, /skills, /rules, /wiki, /working-memory), paging,
 * errors naming the nearest folder, spaces and path escapes — over a store populated with
 * test/support/knowledge-fixture.ts. test/contract/portability.test.ts checks that both backends
 * read the same tree over the same knowledge.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Engine } from '../../src/app/engine.js';
import type { BackendKind } from '../../src/ports/stores.js';
import { BACKENDS, backendHome } from '../support/backends.js';
import { type Fixture, populate, SKILL_V2 } from '../support/knowledge-fixture.js';

/** The code and message of what `fn` throws. */
async function failure(fn: () => unknown): Promise<{ code: string; message: string }> {
  try {
    await fn();
  } catch (err) {
    return { code: (err as { code: string }).code, message: (err as Error).message };
  }
  assert.fail('expected an error');
}

function suite(kind: BackendKind) {
  let e: Engine;
  let fx: Fixture;
  let cleanup: () => void;

  before(async () => {
    const h = backendHome(kind);
    e = h.engine();
    fx = await populate(e);
    cleanup = h.cleanup;
  });

  after(async () => {
    e.close();
    cleanup();
  });

  const names = async (path: string, opts = {}) => (await e.fs.ls(path, opts)).entries.map((x) => x.name);

  it('ls: the root, the views of each mount, and a file listing as itself', async () => {
    assert.deepEqual(await names('/'), ['memories', 'threads', 'skills', 'rules', 'wiki', 'working-memory']);
    assert.match((await e.fs.ls('/')).entries[0].title ?? '', /by-id, by-label/);
    assert.deepEqual(await names('/memories'), ['by-id', 'by-label', 'by-type', 'by-date']);
    // Active memories of the default space only: not the superseded, forgotten or work-space ones.
    const byId = await e.fs.ls('/memories/by-id');
    assert.equal(byId.count, 2);
    assert.deepEqual(
      byId.entries.map((x) => x.name).sort(),
      [`${fx.memory}.md`, `${fx.successor}.md`].sort(),
    );
    assert.deepEqual(await names('/memories/by-label'), ['cache', 'ci/cd', 'db']);
    assert.deepEqual(await names('/memories/by-label/ci%2Fcd'), [`${fx.memory}.md`]);
    assert.equal(
      (await e.fs.ls('/memories/by-label/ci%2Fcd')).entries[0].path,
      `/memories/by-label/ci%2Fcd/${fx.memory}.md`,
    );
    assert.deepEqual(await names('/memories/by-type/decision'), [`${fx.memory}.md`]);
    assert.equal((await e.fs.ls('/memories/by-type')).entries.length, 8);
    // Filed under its event date, not the day it was recorded.
    assert.ok((await names('/memories/by-date')).includes('2026'));
    assert.deepEqual(await names('/memories/by-date/2026/03/01'), [`${fx.memory}.md`]);
    assert.deepEqual(await names('/threads'), ['by-id', 'by-agent', 'by-date']);
    assert.deepEqual(await names('/threads/by-agent'), ['other']);
    assert.deepEqual(await names('/threads/by-date/2026/03/01'), ['chat-42.md']);
    assert.deepEqual(await names('/skills'), ['deploy-app']);
    assert.deepEqual(await names('/skills/deploy-app'), ['SKILL.md', 'versions']);
    assert.deepEqual(await names('/skills/deploy-app/versions'), ['1.md', '2.md']);
    assert.deepEqual(await names('/wiki'), ['architecture', 'runbooks']);
    assert.deepEqual(await names('/wiki/architecture'), ['payments.md']);
    assert.deepEqual((await names('/rules')).length, 2);
    assert.deepEqual(await names('/working-memory'), ['today.md']);
    const file = await e.fs.ls(`/memories/by-id/${fx.memory}.md`);
    assert.equal(file.kind, 'file');
    assert.equal(file.entries[0].title, 'Billing database');
  });

  it('ls pages big folders with max and offset', async () => {
    const h = backendHome(kind);
    const e2 = h.engine();
    try {
      for (let i = 0; i < 7; i++)
        e2.memories.add({ content: `Distinct fact number ${i} about topic ${i * 31}` });
      const p1 = await e2.fs.ls('/memories/by-id', { max: 3 });
      assert.equal(p1.entries.length, 3);
      assert.equal(p1.next_offset, 3);
      const p3 = await e2.fs.ls('/memories/by-id', { max: 3, offset: 6 });
      assert.equal(p3.entries.length, 1);
      assert.equal(p3.next_offset, null);
      const all = new Set(
        [
          ...p1.entries,
          ...(await e2.fs.ls('/memories/by-id', { max: 3, offset: 3 })).entries,
          ...p3.entries,
        ].map((x) => x.name),
      );
      assert.equal(all.size, 7);
      assert.equal((await failure(() => e2.fs.ls('/', { max: 0 }))).code, 'INVALID_INPUT');
      const long = (await e2.fs.ls('/memories/by-id', { long: true, max: 1 })).entries[0];
      assert.equal(typeof long.size, 'number');
      assert.equal(long.writable, true);
      assert.match(long.link ?? '', /^tapedeck:\/\/memory\//);
    } finally {
      e2.close();
      h.cleanup();
    }
  });

  it('cat: a memory as front matter and text; line windows; superseded and forgotten stay readable by id', async () => {
    const text = (await e.fs.cat(`/memories/by-id/${fx.memory}.md`)).lines.join('\n');
    assert.match(text, /^---\nid: /);
    assert.match(text, /\ntype: decision\n/);
    assert.match(text, /\nlabels: \[db, ci\/cd\]\n/);
    assert.match(text, /\nthread: chat-42\nsteps: "0-1"\n/);
    assert.match(text, /\n---\n\nBilling uses Postgres 16 with logical replication$/);
    const w = await e.fs.cat(`/memories/by-id/${fx.memory}.md`, { lines: '2-3' });
    assert.deepEqual(w.lines, [`id: ${fx.memory}`, 'title: Billing database']);
    assert.equal(w.from, 2);
    assert.equal(w.to, 3);
    assert.equal(w.more, true);
    assert.equal((await e.fs.cat(`/memories/by-id/${fx.memory}.md`, { lines: '500-' })).lines.length, 0);
    assert.match(
      (await e.fs.cat(`/memories/by-id/${fx.superseded}.md`)).lines.join('\n'),
      /status: superseded\n[\s\S]*superseded_by: /,
    );
    assert.match((await e.fs.cat(`tapedeck://memory/${fx.forgotten}`)).lines.join('\n'), /status: forgotten/);
    // …but never listed by a view.
    assert.equal(
      (await failure(() => e.fs.cat(`/memories/by-label/cache/${fx.superseded}.md`))).code,
      'NOT_FOUND',
    );
    assert.equal((await failure(() => e.fs.cat('/memories'))).code, 'INVALID_INPUT');
    for (const bad of ['0-3', '5-2', 'x', '-'])
      assert.equal(
        (await failure(() => e.fs.cat(`/memories/by-id/${fx.memory}.md`, { lines: bad }))).code,
        'INVALID_INPUT',
        bad,
      );
  });

  it('cat: skills byte for byte, versions, rules, wiki, working memory', async () => {
    assert.equal(`${(await e.fs.cat('/skills/deploy-app/SKILL.md')).lines.join('\n')}\n`, SKILL_V2);
    assert.match(
      (await e.fs.cat('/skills/deploy-app/versions/1.md')).lines.join('\n'),
      /Deploy the shop to production\n/,
    );
    assert.match(
      (await e.fs.cat(`/rules/${fx.ruleGlobal}.md`)).lines.join('\n'),
      /scope: global\npriority: 5/,
    );
    assert.equal((await failure(() => e.fs.cat(`/rules/${fx.ruleWork}.md`))).code, 'NOT_FOUND');
    assert.match((await e.fs.cat('/wiki/architecture/payments.md')).lines.join('\n'), /retries use backoff/);
    assert.equal((await failure(() => e.fs.cat('/wiki/scratch.md'))).code, 'NOT_FOUND');
    const wm = (await e.fs.cat('/working-memory/today.md')).lines.join('\n');
    assert.match(wm, /^# Working memory/);
    assert.match(wm, /## Open loops \(edited\)\n- migrate the invoices table/);
  });

  it('cat: a thread as Markdown, one section per step; a long thread renders only the window asked', async () => {
    const t = (await e.fs.cat('/threads/by-id/chat-42.md')).lines.join('\n');
    assert.match(t, /^---\nid: chat-42\ntitle: Billing migration\nagent: other\n/);
    assert.match(
      t,
      /\n## #0 user\/prompt · 2026-03-01T10:00:00.000Z · line 1\n\nMove billing to Postgres\?\n/,
    );
    assert.match(t, /\n## #2 user\/prompt · .* · line 3\n\nTODO: migrate the invoices table$/);
    assert.equal((await failure(() => e.fs.cat('/threads/by-agent/codex/chat-42.md'))).code, 'NOT_FOUND');

    const h = backendHome(kind);
    const e2 = h.engine();
    try {
      const messages = Array.from({ length: 900 }, (_, i) => ({
        role: i % 2 ? 'assistant' : 'user',
        content: `message ${i}`,
      }));
      e2.savedThreads.import({ id: 'long-one', messages });
      const head = await e2.fs.cat('/threads/by-id/long-one.md', { lines: '1-20' });
      assert.equal(head.lines.length, 20);
      assert.equal(head.total_lines, null, 'the rest was not rendered');
      assert.equal(head.more, true);
      const all = await e2.fs.cat('/threads/by-id/long-one.md');
      assert.ok(all.total_lines! > 900 * 4);
      const tail = await e2.fs.cat('/threads/by-id/long-one.md', { lines: `${all.total_lines! - 1}-` });
      assert.deepEqual(tail.lines, ['', 'message 899']);
      assert.equal(tail.more, false);
    } finally {
      e2.close();
      h.cleanup();
    }
  });

  it('stat: kind, size, lines, dates, links, writable, canonical', async () => {
    const path = `/memories/by-label/db/${fx.memory}.md`;
    const s = await e.fs.stat(path);
    const text = `${(await e.fs.cat(path)).lines.join('\n')}\n`;
    assert.equal(s.kind, 'file');
    assert.equal(s.size, Buffer.byteLength(text));
    assert.equal(s.lines, text.split('\n').length - 1);
    assert.equal(s.link, `tapedeck://memory/${fx.memory}`);
    assert.equal(s.canonical, `/memories/by-id/${fx.memory}.md`);
    assert.equal(s.writable, true);
    assert.equal(s.info.status, 'active');
    assert.equal((await e.fs.stat(`/memories/by-id/${fx.superseded}.md`)).writable, false);
    assert.equal((await e.fs.stat('/threads/by-id/chat-42.md')).link, 'tapedeck://thread/chat-42');
    assert.equal((await e.fs.stat('/threads/by-id/chat-42.md')).writable, false);
    assert.equal((await e.fs.stat('/threads/by-id/chat-42.md')).info.steps, 3);
    assert.equal((await e.fs.stat('/skills/deploy-app/SKILL.md')).info.version, 2);
    assert.equal((await e.fs.stat('/memories/by-id')).kind, 'dir');
    assert.equal((await e.fs.stat('/memories/by-id')).count, 2);
    assert.equal((await e.fs.stat('/wiki')).link, 'tapedeck://fs/wiki');
  });

  it('find: by name glob and kind, capped with a note', async () => {
    const md = (await e.fs.find('/skills', { name: '*.md', type: 'file' })).entries.map((x) => x.path);
    assert.deepEqual(md, [
      '/skills/deploy-app/SKILL.md',
      '/skills/deploy-app/versions/1.md',
      '/skills/deploy-app/versions/2.md',
    ]);
    const dirs = (await e.fs.find('/wiki', { type: 'dir' })).entries.map((x) => x.path);
    assert.deepEqual(dirs, ['/wiki', '/wiki/architecture', '/wiki/runbooks']);
    const capped = await e.fs.find('/', { max: 5 });
    assert.equal(capped.entries.length, 5);
    assert.equal(capped.truncated, true);
    assert.match(capped.note ?? '', /more than 5 matches/);
    assert.equal((await failure(() => e.fs.find('/', { type: 'link' }))).code, 'INVALID_INPUT');
  });

  it('grep: regex with line numbers, each record once, -i, and bounded', async () => {
    const r = await e.fs.grep('postgres', '/memories');
    assert.deepEqual(r.matches, []);
    const i = await e.fs.grep('postgres 16', '/memories', { ignoreCase: true });
    // Found through by-id only, although the memory is also under by-label, by-type and by-date.
    assert.deepEqual(
      i.matches.map((m) => [m.path, m.line]),
      [[`/memories/by-id/${fx.memory}.md`, 20]],
    );
    assert.match(i.matches[0].text, /Billing uses Postgres 16/);
    const inView = await e.fs.grep('Postgres', '/memories/by-label/db');
    assert.deepEqual(
      inView.matches.map((m) => m.path),
      [`/memories/by-label/db/${fx.memory}.md`],
    );
    const threads = await e.fs.grep('^TODO', '/threads');
    assert.deepEqual(
      threads.matches.map((m) => [m.path, m.text]),
      [['/threads/by-id/chat-42.md', 'TODO: migrate the invoices table']],
    );
    const capped = await e.fs.grep('.', '/', { max: 3 });
    assert.equal(capped.matches.length, 3);
    assert.equal(capped.truncated, true);
    assert.match(capped.note ?? '', /stopped at 3 matches/);
    assert.equal((await failure(() => e.fs.grep('(unclosed', '/'))).code, 'INVALID_INPUT');
  });

  it('grep: a catastrophic pattern stops on time with a partial-result note', async () => {
    const h = backendHome(kind);
    const e2 = h.engine();
    try {
      await e2.wiki.write('a.md', '# A\n\naaaa\n');
      await e2.wiki.write('b.md', `# B\n\n${'a'.repeat(48)}!\n`);
      const started = Date.now();
      const r = await e2.fs.grep('^(a+)+$', '/wiki', { timeoutMs: 300 });
      assert.ok(Date.now() - started < 3000);
      assert.equal(r.truncated, true);
      assert.match(r.note ?? '', /stopped after 300 ms in \/wiki\/b\.md: the pattern is too slow/);
      assert.deepEqual(
        r.matches.map((m) => [m.path, m.line]),
        [['/wiki/a.md', 3]],
      );
    } finally {
      e2.close();
      h.cleanup();
    }
  });

  it('recall: each mount searched its own way, scoped by the path', async () => {
    const all = await e.fs.recall('postgres billing', '/');
    const sources = new Set(all.hits.map((h) => h.source));
    for (const s of ['memories', 'threads']) assert.ok(sources.has(s), s);
    assert.ok(all.hits.some((h) => h.path === `/memories/by-id/${fx.memory}.md`));
    assert.ok(all.hits.some((h) => h.path === '/threads/by-id/chat-42.md'));
    assert.deepEqual(
      (await e.fs.recall('cache', '/memories/by-label/cache')).hits.map((h) => h.path),
      [`/memories/by-id/${fx.successor}.md`],
    );
    assert.deepEqual((await e.fs.recall('cache', '/memories/by-label/db')).hits, []);
    assert.deepEqual(
      (await e.fs.recall('deploy', '/skills')).hits.map((h) => h.path),
      ['/skills/deploy-app/SKILL.md'],
    );
    assert.deepEqual(
      (await e.fs.recall('webhooks', '/wiki/architecture')).hits.map((h) => h.path),
      ['/wiki/architecture/payments.md'],
    );
    assert.deepEqual((await e.fs.recall('webhooks', '/wiki/runbooks')).hits, []);
    assert.deepEqual(
      (await e.fs.recall('tests commit', '/rules')).hits.map((h) => h.path),
      [`/rules/${fx.ruleGlobal}.md`],
    );
    assert.equal((await failure(() => e.fs.recall('  ', '/'))).code, 'INVALID_INPUT');
  });

  it('write: new memories from front matter, folders add their label, type or date; dedup', async () => {
    const r = await e.fs.write(
      '/memories/by-label/infra/new.md',
      '---\ntitle: Queue choice\ntype: decision\nlabels: [queue]\nimportance: 0.9\n---\n\nWe use SQS for the order queue.\n',
    );
    assert.equal(r.status, 'created');
    const id = r.canonical.match(/by-id\/(.+)\.md$/)![1];
    const m = e.memories.get(id);
    assert.equal(m.title, 'Queue choice');
    assert.equal(m.unit_type, 'decision');
    assert.deepEqual(m.labels, ['queue', 'infra']);
    assert.equal(m.importance, 0.9);
    assert.equal(m.content, 'We use SQS for the order queue.');
    assert.equal(
      (await e.fs.write('/memories/by-type/plan/new.md', 'Plan: move to Kafka next quarter')).status,
      'created',
    );
    const dated = await e.fs.write('/memories/by-date/2025/12/24/new.md', 'Froze deploys over the holidays');
    assert.equal(
      e.memories.get(dated.canonical.match(/by-id\/(.+)\.md$/)![1]).event_start,
      '2025-12-24T00:00:00.000Z',
    );
    const dup = await e.fs.write('/memories/by-id/another.md', 'We use SQS for the order queue.');
    assert.equal(dup.status, 'deduplicated');
    assert.equal(dup.canonical, r.canonical);
    assert.equal(
      (await failure(() => e.fs.write('/memories/by-id/x.md', '---\nlables: [typo]\n---\nx'))).code,
      'INVALID_INPUT',
    );
    assert.equal(
      (await failure(() => e.fs.write('/memories/by-type/nope/new.md', 'x'))).code,
      'INVALID_INPUT',
    );
    assert.equal(
      (await failure(() => e.fs.write('/memories/by-type/plan/new.md', '---\ntype: fact\n---\nx'))).code,
      'INVALID_INPUT',
    );
    assert.equal((await failure(() => e.fs.write('/memories/by-id/new.md', '   '))).code, 'INVALID_INPUT');
  });

  it('write: an existing memory file supersedes it when the text changes, updates it otherwise', async () => {
    const id = e.memories.add({ content: 'The API rate limit is 100 rps', labels: ['api'] }).id;
    const path = `/memories/by-id/${id}.md`;
    const text = (await e.fs.cat(path)).lines.join('\n');
    assert.equal((await e.fs.write(path, text)).status, 'unchanged');
    const relabeled = await e.fs.write(path, text.replace('labels: [api]', 'labels: [api, limits]'));
    assert.equal(relabeled.status, 'updated');
    assert.deepEqual(e.memories.get(id).labels, ['api', 'limits']);
    // Only the body is edited: the title derived from the old text follows the new one.
    const body = text.replace(/\nThe API rate limit is 100 rps$/, '\nThe API rate limit is 250 rps');
    const next = await e.fs.write(path, body);
    assert.equal(next.status, 'superseded');
    assert.notEqual(next.canonical, path);
    assert.equal(e.memories.get(id).status, 'superseded');
    const successor = e.memories.get(next.canonical.match(/by-id\/(.+)\.md$/)![1]);
    assert.equal(successor.content, 'The API rate limit is 250 rps');
    assert.equal(successor.title, 'The API rate limit is 250 rps');
    assert.deepEqual(successor.labels, ['api', 'limits']);
    assert.deepEqual(successor.provenance, null);
    // The old file is no longer writable: the service says which one to change.
    assert.equal((await failure(() => e.fs.write(path, 'The API rate limit is 300 rps'))).code, 'CONFLICT');
  });

  it('write: skills (new and new version), wiki pages, working-memory sections', async () => {
    const skill = '---\nname: fs-skill\ndescription: Written through the fs\n---\n\nDo it.\n';
    assert.equal((await e.fs.write('/skills/fs-skill/SKILL.md', skill)).status, 'created');
    assert.equal((await e.fs.write('/skills/fs-skill/SKILL.md', skill)).status, 'unchanged');
    assert.equal(
      (await e.fs.write('/skills/fs-skill/SKILL.md', skill.replace('Do it.', 'Do it twice.'))).status,
      'updated',
    );
    assert.equal(e.skills.show('fs-skill').version, 2);
    assert.match(
      (await failure(() => e.fs.write('/skills/other-name/SKILL.md', skill))).message,
      /names "fs-skill", but the folder is "other-name"/,
    );
    assert.equal(
      (await failure(() => e.fs.write('/skills/fs-skill/SKILL.md', 'no front matter'))).code,
      'INVALID_INPUT',
    );
    assert.equal(
      (await failure(() => e.fs.write('/skills/fs-skill/versions/1.md', skill))).code,
      'FORBIDDEN',
    );

    assert.equal((await e.fs.write('/wiki/notes/fs.md', '# From fs\n')).status, 'created');
    assert.equal((await e.fs.write('/wiki/notes/fs.md', '# From fs, again\n')).status, 'updated');
    assert.equal((await e.wiki.read('notes/fs.md')).version, 2);
    assert.equal((await failure(() => e.fs.write('/wiki/notes', '# x'))).code, 'INVALID_INPUT');

    const today = (await e.fs.cat('/working-memory/today.md')).lines.join('\n');
    const edited = today.replace(/## Focus\n[\s\S]*?\n\n/, '## Focus\n- ship the fs\n\n');
    const r = await e.fs.write('/working-memory/today.md', edited);
    assert.equal(r.status, 'updated');
    assert.match(
      (await e.fs.cat('/working-memory/today.md')).lines.join('\n'),
      /## Focus \(edited\)\n- ship the fs/,
    );
  });

  it('write and rm where the tree is read-only: FORBIDDEN naming the writable places', async () => {
    for (const p of [
      '/',
      '/rules/x.md',
      '/threads/by-id/chat-42.md',
      '/memories',
      '/memories/by-label',
      '/wiki',
    ]) {
      const f = await failure(() => e.fs.write(p, 'text'));
      assert.equal(f.code, 'FORBIDDEN', p);
    }
    const msg = (await failure(() => e.fs.write(`/rules/${fx.ruleGlobal}.md`, 'x'))).message;
    for (const place of [
      '/memories/by-id/new.md',
      '/skills/<name>/SKILL.md',
      '/wiki/<path>.md',
      '/working-memory/today.md',
    ])
      assert.ok(msg.includes(place), place);
    assert.equal((await failure(() => e.fs.rm(`/rules/${fx.ruleGlobal}.md`))).code, 'FORBIDDEN');
    assert.equal((await failure(() => e.fs.rm('/threads/by-id/chat-42.md'))).code, 'FORBIDDEN');
    assert.equal((await failure(() => e.fs.rm('/memories'))).code, 'FORBIDDEN');
    assert.equal((await failure(() => e.fs.rm('/working-memory/today.md'))).code, 'FORBIDDEN');
  });

  it('rm: forget a memory, remove a wiki page, archive a skill; each says how to undo', async () => {
    const id = e.memories.add({ content: 'Temporary memory to forget' }).id;
    const r = await e.fs.rm(`/memories/by-id/${id}.md`);
    assert.deepEqual(r, {
      path: `/memories/by-id/${id}.md`,
      status: 'forgotten',
      undo: `tapedeck memory restore ${id}`,
    });
    assert.equal(e.memories.get(id).status, 'forgotten');
    assert.equal((await failure(() => e.fs.rm(`/memories/by-id/${id}.md`))).code, 'CONFLICT');
    await e.wiki.write('tmp.md', '# tmp\n');
    assert.equal((await e.fs.rm('/wiki/tmp.md')).status, 'removed');
    assert.equal((await e.wiki.history('tmp.md')).removed_at !== null, true);
    e.skills.add({ name: 'to-archive', description: 'Archive me', body: 'x' });
    const s = await e.fs.rm('/skills/to-archive/SKILL.md');
    assert.equal(s.status, 'archived');
    assert.equal(s.undo, 'tapedeck skills stage to-archive active');
    assert.ok(!(await names('/skills')).includes('to-archive'));
    const missing = await failure(() => e.fs.rm('/wiki/nope/gone.md'));
    assert.equal(missing.code, 'NOT_FOUND');
    assert.match(missing.message, /nearest existing folder is \/wiki /);
  });

  it('NOT_FOUND names the nearest existing folder', async () => {
    const cases: [string, string][] = [
      ['/nothing', '/'],
      ['/memories/by-id/nope.md', '/memories/by-id'],
      ['/memories/by-label/no-such-label/x.md', '/memories/by-label'],
      ['/memories/by-date/1999/01/01', '/memories/by-date'],
      ['/threads/by-agent/codex', '/threads/by-agent'],
      ['/skills/deploy-app/versions/9.md', '/skills/deploy-app/versions'],
      ['/wiki/architecture/missing.md', '/wiki/architecture'],
      ['/working-memory/1999-01-01.md', '/working-memory'],
    ];
    for (const [path, nearest] of cases) {
      const f = await failure(() => e.fs.stat(path));
      assert.equal(f.code, 'NOT_FOUND', path);
      assert.ok(f.message.includes(`nearest existing folder is ${nearest} `), `${path}: ${f.message}`);
    }
    assert.match((await failure(() => e.fs.ls('/nothing'))).message, /top folders are \/memories, \/threads/);
  });

  it('spaces: nothing crosses unless asked', async () => {
    assert.ok(!(await names('/memories/by-id')).includes(`${fx.workMemory}.md`));
    assert.equal((await failure(() => e.fs.cat(`/memories/by-id/${fx.workMemory}.md`))).code, 'NOT_FOUND');
    assert.deepEqual(await names('/memories/by-id', { space: 'work' }), [`${fx.workMemory}.md`]);
    assert.deepEqual(await names('/skills', { space: 'work' }), ['work-skill']);
    assert.deepEqual(await names('/wiki', { space: 'work' }), ['notes.md']);
    assert.ok((await names('/rules', { space: 'work' })).includes(`${fx.ruleWork}.md`));
    const w = await e.fs.write('/memories/by-id/new.md', 'Written into the work space', { space: 'work' });
    assert.equal(e.memories.get(w.canonical.match(/by-id\/(.+)\.md$/)![1]).space, 'work');
    assert.equal((await failure(() => e.fs.ls('/', { space: 'Bad Space' }))).code, 'INVALID_INPUT');
  });

  it('every verb refuses paths that escape the tree, and nothing is written', async () => {
    const before = e.memories.list({ allSpaces: true, status: 'all', limit: 1000 }).memories.length;
    const pages = (await e.wiki.list()).length;
    const attempts = [
      '../x.md',
      '/wiki/../../etc/passwd',
      '/etc/passwd',
      '~/x.md',
      'C:\\x.md',
      '/wiki//x.md',
      '/wiki/x\u0000.md',
      '/wiki/a%2F..%2F..%2Fx.md',
      'file:///etc/passwd',
    ];
    for (const p of attempts) {
      for (const [verb, fn] of [
        ['ls', () => e.fs.ls(p)],
        ['cat', () => e.fs.cat(p)],
        ['stat', () => e.fs.stat(p)],
        ['find', () => e.fs.find(p)],
        ['grep', () => e.fs.grep('x', p)],
        ['recall', () => e.fs.recall('x', p)],
        ['write', () => e.fs.write(p, '# x\n')],
        ['rm', () => e.fs.rm(p)],
      ] as const)
        assert.equal((await failure(fn)).code, 'INVALID_INPUT', `${verb} ${JSON.stringify(p)}`);
    }
    assert.equal(e.memories.list({ allSpaces: true, status: 'all', limit: 1000 }).memories.length, before);
    assert.equal((await e.wiki.list()).length, pages);
  });
}

for (const b of BACKENDS) describe(`fs (${b.name})`, { skip: b.skip }, () => suite(b.name));
