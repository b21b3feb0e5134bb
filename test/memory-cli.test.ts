/** `tapedeck memory …` end to end through the built binary: the --json contract, errors, spaces, concurrency. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { BIN, tapedeck } from './support/cli.js';
import { claudeLine, claudePath, tempHome } from './support/home.js';

test('memory add/show/search/list --json print the documented shapes', () => {
  const h = tempHome();
  after(h.cleanup);
  const add = tapedeck(
    [
      'memory',
      'add',
      'We',
      'deploy',
      'the',
      'shop',
      'with',
      'Fly.io',
      'from',
      'CI',
      '--type',
      'decision',
      '--label',
      'deploy',
      '--label',
      'ci,infra',
      '--importance',
      '0.8',
      '--project',
      '/home/dev/shop',
      '--json',
    ],
    h.env,
  );
  assert.equal(add.status, 0, add.stderr);
  const m = add.json();
  assert.deepEqual(Object.keys(m).slice(0, 2), ['id', 'deduplicated']);
  assert.equal(m.deduplicated, false);
  assert.equal(m.content, 'We deploy the shop with Fly.io from CI');
  assert.equal(m.unit_type, 'decision');
  assert.deepEqual(m.labels, ['deploy', 'ci', 'infra']);
  assert.equal(m.importance, 0.8);
  assert.equal(m.space, 'default');
  assert.equal(m.link, `tapedeck://memory/${m.id}`);

  const again = tapedeck(
    [
      'memory',
      'add',
      'we deploy the shop with fly.io from CI.',
      '--project',
      '/home/dev/shop',
      '--label',
      'release',
      '--json',
    ],
    h.env,
  ).json();
  assert.equal(again.id, m.id);
  assert.equal(again.deduplicated, true);
  assert.deepEqual(again.labels, ['deploy', 'ci', 'infra', 'release']);

  const show = tapedeck(['memory', 'show', m.link, '--json'], h.env);
  assert.equal(show.status, 0, show.stderr);
  assert.equal(show.json().id, m.id);
  assert.deepEqual(show.json().supersedes, []);

  const search = tapedeck(['memory', 'search', 'how', 'do', 'we', 'deploy?', '--json'], h.env);
  assert.equal(search.status, 0, search.stderr);
  const doc = search.json();
  assert.equal(doc.query, 'how do we deploy?');
  assert.equal(doc.hits.length, 1);
  for (const k of ['id', 'title', 'content', 'unit_type', 'labels', 'importance', 'score'])
    assert.ok(k in doc.hits[0], k);
  assert.equal(typeof doc.hits[0].score, 'number');

  const list = tapedeck(['memory', 'list', '--label', 'infra', '--json'], h.env).json();
  assert.deepEqual(
    list.memories.map((x: { id: string }) => x.id),
    [m.id],
  );
  assert.equal(list.next_offset, null);

  const human = tapedeck(['memory', 'search', 'deploy'], h.env);
  assert.match(human.stdout, /1\. We deploy the shop with Fly\.io from CI/);
  assert.match(human.stdout, new RegExp(`tapedeck://memory/${m.id}`));
  const stdin = tapedeck(['memory', 'add', '-', '--json'], h.env, {
    input: 'Line one of a note\nline two of it\n',
  });
  assert.equal(stdin.json().content, 'Line one of a note\nline two of it');
});

test('memory supersede, --as-of, forget, restore and purge from the command line', () => {
  const h = tempHome();
  after(h.cleanup);
  const old = tapedeck(
    ['memory', 'add', 'The API rate limit is 100 requests per minute', '--json'],
    h.env,
  ).json();
  const next = tapedeck(
    ['memory', 'supersede', old.id, 'The API rate limit is 300 requests per minute since v2', '--json'],
    h.env,
  );
  assert.equal(next.status, 0, next.stderr);
  const n = next.json();
  assert.deepEqual(n.supersedes, [old.id]);
  const ids = (args: string[]) =>
    tapedeck(['memory', 'search', 'rate limit', ...args, '--json'], h.env)
      .json()
      .hits.map((x: { id: string }) => x.id);
  assert.deepEqual(ids([]), [n.id]);
  assert.deepEqual(ids(['--as-of', old.created_at]), [old.id], 'as of when the old one was recorded');
  assert.equal(tapedeck(['memory', 'show', old.id, '--json'], h.env).json().superseded_by, n.id);

  assert.equal(tapedeck(['memory', 'forget', n.id, '--json'], h.env).json().status, 'forgotten');
  assert.deepEqual(ids([]), []);
  const purgeActive = tapedeck(['memory', 'purge', old.id, '--yes', '--json'], h.env);
  assert.equal(purgeActive.status, 1, purgeActive.stderr);
  assert.equal(purgeActive.json().error.code, 'CONFLICT');
  assert.equal(tapedeck(['memory', 'restore', n.id, '--json'], h.env).json().status, 'active');
  assert.deepEqual(ids([]), [n.id]);
  tapedeck(['memory', 'forget', n.id], h.env);
  const noYes = tapedeck(['memory', 'purge', n.id], h.env);
  assert.equal(noYes.status, 2, noYes.stderr);
  assert.match(noYes.stderr, /--yes/);
  assert.deepEqual(tapedeck(['memory', 'purge', n.id, '--yes', '--json'], h.env).json(), {
    id: n.id,
    purged: true,
  });
  assert.equal(tapedeck(['memory', 'show', n.id, '--json'], h.env).json().error.code, 'NOT_FOUND');
});

test('memory errors: usage problems exit 2, unknown ids and threads exit 1, each named', () => {
  const h = tempHome();
  after(h.cleanup);
  const cases: [string[], number, string, RegExp][] = [
    [['memory', 'add', ' ', '--json'], 2, 'INVALID_INPUT', /content is empty/],
    [['memory', 'add', 'x', '--importance', '2', '--json'], 2, 'INVALID_INPUT', /importance/],
    [
      ['memory', 'add', 'x', '--type', 'rumour', '--json'],
      2,
      'INVALID_INPUT',
      /Unknown memory type "rumour"/,
    ],
    [['memory', 'add', 'x', '--steps', '1-2', '--json'], 2, 'INVALID_INPUT', /needs a thread/],
    [
      ['memory', 'add', 'x', '--thread', 'codex:missing', '--json'],
      1,
      'NOT_FOUND',
      /No thread "codex:missing"/,
    ],
    [
      ['memory', 'search', 'x', '--until', 'whenever', '--json'],
      2,
      'INVALID_INPUT',
      /until: Cannot read the date/,
    ],
    [
      ['memory', 'search', 'x', '--space', 'a', '--all-spaces', '--json'],
      2,
      'INVALID_INPUT',
      /either --space or --all-spaces/,
    ],
    [['memory', 'show', 'tapedeck://memory/nope', '--json'], 1, 'NOT_FOUND', /No memory/],
  ];
  for (const [args, status, code, message] of cases) {
    const r = tapedeck(args, h.env);
    assert.equal(r.status, status, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
    assert.equal(r.json().error.code, code);
    assert.match(r.json().error.message, message);
  }
  const big = tapedeck(['memory', 'add', '-', '--json'], h.env, { input: 'y'.repeat(20_001) });
  assert.equal(big.status, 2);
  assert.match(big.json().error.message, /20,001 characters/);
  assert.equal(tapedeck(['memory', 'list', '--status', 'all', '--json'], h.env).json().memories.length, 0);
});

test('provenance from an indexed thread renders as a tapedeck://thread link', () => {
  const h = tempHome();
  after(h.cleanup);
  const sid = '9c9c9c9c-1111-4222-8333-444444444444';
  h.write(
    claudePath(sid),
    `${[claudeLine(sid, 'user', 'cache?'), claudeLine(sid, 'assistant', 'Drop redis.')].join('\n')}\n`,
  );
  assert.equal(tapedeck(['index'], h.env).status, 0);
  const r = tapedeck(
    [
      'memory',
      'add',
      'Redis was dropped for an in-process LRU',
      '--thread',
      `claude-code:${sid}`,
      '--steps',
      '1',
      '--json',
    ],
    h.env,
  );
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.json().provenance.link, `tapedeck://thread/claude-code:${sid}#1`);
  const show = tapedeck(['memory', 'show', r.json().id], h.env);
  assert.match(show.stdout, new RegExp(`from: tapedeck://thread/claude-code:${sid}#1 \\(step 1\\)`));
});

test('spaces: TAPEDECK_SPACE and the config mapping pick the space; --all-spaces crosses', () => {
  const h = tempHome();
  after(h.cleanup);
  const client = join(h.home, 'work', 'client');
  mkdirSync(join(client, 'api'), { recursive: true });
  mkdirSync(h.tapedeckHome, { recursive: true });
  writeFileSync(
    join(h.tapedeckHome, 'config.json'),
    JSON.stringify({ spaces: { '~/work/client': 'client' } }),
  );
  const inClient = { cwd: join(client, 'api') };
  const c = tapedeck(['memory', 'add', 'Client invoices go out weekly', '--json'], h.env, inClient).json();
  assert.equal(c.space, 'client', 'mapped from the working directory');
  const e = tapedeck(
    ['memory', 'add', 'Experiment invoices go out daily', '--json'],
    { ...h.env, TAPEDECK_SPACE: 'lab' },
    inClient,
  ).json();
  assert.equal(e.space, 'lab', 'TAPEDECK_SPACE beats the mapping');
  const d = tapedeck(['memory', 'add', 'Invoices go out monthly', '--json'], h.env).json();
  assert.equal(d.space, 'default');
  const ids = (args: string[], opts = {}) =>
    tapedeck(['memory', 'search', 'invoices', ...args, '--json'], h.env, opts)
      .json()
      .hits.map((x: { id: string }) => x.id)
      .sort();
  assert.deepEqual(ids([]), [d.id]);
  assert.deepEqual(ids([], inClient), [c.id]);
  assert.deepEqual(ids(['--space', 'lab']), [e.id]);
  assert.deepEqual(ids(['--all-spaces']), [c.id, d.id, e.id].sort());
  const bad = tapedeck(['memory', 'add', 'x', '--json'], { ...h.env, TAPEDECK_SPACE: 'Not Valid' });
  assert.equal(bad.status, 2);
  assert.match(bad.json().error.message, /TAPEDECK_SPACE/);
});

function run(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

test('concurrent writers: processes adding at the same time lose nothing and duplicate nothing', async () => {
  const h = tempHome();
  after(h.cleanup);
  assert.equal(tapedeck(['memory', 'list'], h.env).status, 0); // create the database first
  const unique = Array.from(
    { length: 8 },
    (_, i) => `Concurrent memory number ${i} about subsystem ${String.fromCharCode(97 + i)}`,
  );
  const shared = 'Both agents learned that the integration tests need Docker running';
  const results = await Promise.all([
    ...unique.map((c) => run(['memory', 'add', c, '--json'], h.env)),
    ...Array.from({ length: 4 }, () => run(['memory', 'add', shared, '--label', 'docker', '--json'], h.env)),
  ]);
  for (const r of results) assert.equal(r.code, 0, r.err);
  const docs = results.map((r) => JSON.parse(r.out));
  const sharedIds = new Set(docs.slice(unique.length).map((d) => d.id));
  assert.equal(sharedIds.size, 1, 'the shared fact was stored once');
  assert.equal(docs.slice(unique.length).filter((d) => !d.deduplicated).length, 1);
  const all = tapedeck(['memory', 'list', '--limit', '100', '--json'], h.env).json().memories;
  assert.equal(all.length, unique.length + 1);
  for (const c of unique)
    assert.ok(
      all.some((m: { content: string }) => m.content === c),
      c,
    );
});
