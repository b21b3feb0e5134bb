/** `tapedeck fs …`, `tapedeck export` and `tapedeck import` end to end through the built binary. */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { tapedeck } from './support/cli.js';
import { tempHome } from './support/home.js';

function home() {
  const h = tempHome();
  after(h.cleanup);
  const run = (...args: string[]) => tapedeck(args, h.env);
  const json = (...args: string[]) => {
    const r = run(...args, '--json');
    assert.equal(r.status, 0, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
    return r.json();
  };
  return { h, run, json };
}

test('fs: write a memory, ls, cat with a numbered window, stat, find, grep, recall, rm', () => {
  const { h, run, json } = home();
  const file = h.write(
    'mem.md',
    '---\ntitle: Billing DB\ntype: decision\nlabels: [db]\n---\n\nBilling uses Postgres 16.\n',
  );
  const w = json('fs', 'write', '/memories/by-id/new.md', '--file', file);
  assert.equal(w.status, 'created');
  const path = w.canonical as string;
  const id = path.match(/by-id\/(.+)\.md$/)![1];

  const ls = run('fs', 'ls', '/memories/by-label');
  assert.equal(ls.status, 0, ls.stderr);
  assert.equal(ls.stdout, 'db/  (1)\n');
  assert.equal(run('fs', 'ls', '/memories/by-label/db').stdout, `${id}.md  Billing DB\n`);
  const long = run('fs', 'ls', '-l', '/memories/by-id');
  assert.match(
    long.stdout,
    new RegExp(`^- \\d+ +\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2} ${id}\\.md  Billing DB\\n$`),
  );
  assert.deepEqual(
    json('fs', 'ls', '/').entries.map((e: { name: string }) => e.name),
    ['memories', 'threads', 'skills', 'rules', 'wiki', 'working-memory'],
  );

  const cat = run('fs', 'cat', path, '--lines', '2-3', '--number');
  assert.equal(cat.stdout, `   2  id: ${id}\n   3  title: Billing DB\n`);
  assert.match(cat.stderr, /lines 2-3 of \d+; --lines 4- for the rest/);
  assert.match(run('fs', 'cat', `tapedeck://memory/${id}`).stdout, /\n\nBilling uses Postgres 16\.\n$/);

  const stat = json('fs', 'stat', path);
  assert.equal(stat.kind, 'file');
  assert.equal(stat.link, `tapedeck://memory/${id}`);
  assert.equal(stat.writable, true);
  assert.match(run('fs', 'stat', '/rules').stdout, /kind: dir\n[\s\S]*writable: no/);

  assert.equal(
    run('fs', 'find', '/memories', '--name', '*.md', '--type', 'file', '--max', '1').stdout,
    `${path}\n`,
  );
  assert.match(
    run('fs', 'find', '/memories', '--name', '*.md', '--max', '1').stderr,
    /partial: more than 1 matches/,
  );

  const grep = run('fs', 'grep', '-i', 'POSTGRES', '/memories');
  assert.match(
    grep.stdout,
    new RegExp(`^${path.replace(/[.]/g, '\\.')}:\\d+:Billing uses Postgres 16\\.\\n$`),
  );
  assert.match(run('fs', 'grep', 'kafka', '/').stderr, /no match in \d+ files/);

  const recall = json('fs', 'recall', 'postgres billing', '/memories');
  assert.equal(recall.hits[0].path, path);

  const rm = run('fs', 'rm', path);
  assert.equal(rm.status, 2);
  assert.match(rm.stderr, /rm needs --yes/);
  const gone = run('fs', 'rm', path, '--yes');
  assert.equal(gone.status, 0, gone.stderr);
  assert.equal(gone.stdout, `Forgotten ${path} (undo: tapedeck memory restore ${id})\n`);
  assert.equal(run('fs', 'ls', '/memories/by-id').stderr, '(/memories/by-id is empty)\n');
});

test('fs: errors map to exit codes and JSON: INVALID_INPUT 2, NOT_FOUND and FORBIDDEN 1', () => {
  const { run } = home();
  const climb = run('fs', 'cat', '../../etc/passwd');
  assert.equal(climb.status, 2);
  assert.match(climb.stderr, /contains "\.\."/);
  const host = run('fs', 'ls', '/etc', '--json');
  assert.equal(host.status, 2);
  assert.equal(host.json().error.code, 'INVALID_INPUT');
  const missing = run('fs', 'stat', '/wiki/nope/page.md', '--json');
  assert.equal(missing.status, 1);
  assert.equal(missing.json().error.code, 'NOT_FOUND');
  assert.equal(missing.json().error.details.nearest, '/wiki');
  const ro = run('fs', 'write', '/rules/x.md', '--content', 'x');
  assert.equal(ro.status, 1);
  assert.match(ro.stderr, /read-only\. Writable: \/memories\/by-id\/new\.md/);
  const wiki = run('fs', 'write', '/wiki/notes/a.md', '--content', '# A\n');
  assert.equal(wiki.status, 0, wiki.stderr);
  assert.match(wiki.stdout, /^Created \/wiki\/notes\/a\.md v1/);
});

test('export and import: one folder, round trip, idempotent, dry run, errors with file and line', () => {
  const a = home();
  a.json('memory', 'add', 'Billing uses Postgres 16', '--label', 'db');
  a.json('memory', 'add', 'Work memory', '--space', 'work');
  a.json('rules', 'add', 'Run the tests first');
  a.json('wiki', 'write', 'notes.md', '--content', '# Notes\n');
  const dir = join(a.h.home, 'export');
  const human = a.run('export', dir);
  assert.equal(human.status, 0, human.stderr);
  assert.equal(
    human.stdout,
    `Exported 1 memory, 1 rule, 1 wiki page (1 version) from space default to ${dir}\n`,
  );
  assert.deepEqual(readdirSync(dir).sort(), [
    'manifest.json',
    'memories.jsonl',
    'rules.jsonl',
    'skills.jsonl',
    'threads',
    'wiki',
    'wiki.jsonl',
    'working-memory.jsonl',
  ]);
  const all = join(a.h.home, 'all');
  const ex = a.json('export', all, '--all-spaces');
  assert.deepEqual(ex.manifest.spaces, ['default', 'work']);
  assert.equal(ex.manifest.counts.memories, 2);

  const b = home();
  const dry = b.json('import', all, '--dry-run');
  assert.equal(dry.dry_run, true);
  assert.equal(dry.created.memories, 2);
  assert.equal(b.json('memory', 'list', '--all-spaces').memories.length, 0);
  const imp = b.run('import', all);
  assert.equal(imp.status, 0, imp.stderr);
  assert.equal(imp.stdout, `Imported 2 memories, 1 rule, 1 wiki page (1 version) from ${all}\n`);
  const again = b.run('import', all);
  assert.equal(
    again.stdout,
    `Imported nothing from ${all}\nAlready here, unchanged: 2 memories, 1 rule, 1 wiki page (1 version)\n`,
  );
  const back = join(b.h.home, 'back');
  b.json('export', back, '--all-spaces');
  for (const f of ['memories.jsonl', 'rules.jsonl', 'wiki.jsonl', 'wiki/default/notes.md'])
    assert.equal(readFileSync(join(back, f), 'utf8'), readFileSync(join(all, f), 'utf8'), f);

  const notEmpty = a.run('export', all);
  assert.equal(notEmpty.status, 1);
  assert.match(notEmpty.stderr, /is not empty/);

  const c = home();
  const broken = c.h.write('broken/manifest.json', readFileSync(join(all, 'manifest.json'), 'utf8'));
  c.h.write('broken/memories.jsonl', '{"id": 1}\n');
  const bad = c.run('import', join(broken, '..'), '--json');
  assert.equal(bad.status, 2);
  assert.match(
    bad.json().error.message,
    /^Nothing imported from .*: memories\.jsonl:1: "content" must be text/,
  );
  assert.equal(bad.json().error.details.problems[0].file, 'memories.jsonl');
  assert.equal(bad.json().error.details.problems[0].line, 1);
});
