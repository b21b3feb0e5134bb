/** `tapedeck skills …` and `tapedeck wiki …` end to end through the built binary. */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { BIN, tapedeck } from './support/cli.js';
import { tempHome } from './support/home.js';

const SKILL =
  '---\nname: release-notes\ndescription: Use when writing release notes from merged PRs\n---\n\n# Release notes\n1. List merged PRs.\n';

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

test('skills: add, list, find, show (and --raw byte for byte), versions', () => {
  const { h, run, json } = home();
  const file = h.write('SKILL.md', SKILL);
  const added = json('skills', 'add', file);
  assert.deepEqual(Object.keys(added).sort(), [
    'badge',
    'created',
    'description',
    'name',
    'redactions',
    'space',
    'stage',
    'updated_at',
    'version',
  ]);
  assert.deepEqual(
    [added.name, added.version, added.stage, added.badge],
    ['release-notes', 1, 'active', 'Draft'],
  );
  json(
    'skills',
    'add',
    '--name',
    'deploy',
    '--description',
    'Use when shipping to production',
    '--body',
    'make ship',
    '--stage',
    'draft',
  );

  assert.deepEqual(
    json('skills', 'list').skills.map((s: { name: string }) => s.name),
    ['deploy', 'release-notes'],
  );
  const found = json('skills', 'find', 'write', 'release', 'notes');
  assert.equal(found.hits[0].name, 'release-notes');
  assert.deepEqual(Object.keys(found.hits[0]).sort(), [
    'badge',
    'description',
    'name',
    'score',
    'stage',
    'version',
  ]);
  const human = run('skills', 'find', 'release notes');
  assert.match(human.stdout, /^release-notes {2}\[Draft\] — Use when writing release notes/m);

  const raw = run('skills', 'show', 'release-notes', '--raw');
  assert.equal(raw.stdout, SKILL);
  const updated = json(
    'skills',
    'update',
    'release-notes',
    '--body',
    '# Release notes\nGroup by label.\n',
    '--note',
    'group',
  );
  assert.equal(updated.version, 2);
  assert.equal(run('skills', 'show', 'release-notes', '--raw', '--version=1').stdout, SKILL);
  const shown = json('skills', 'show', 'release-notes');
  assert.equal(shown.shown_version, 2);
  assert.match(shown.body, /Group by label/);
  assert.deepEqual(
    shown.versions.map((v: { version: number; note: string | null }) => [v.version, v.note]),
    [
      [1, null],
      [2, 'group'],
    ],
  );

  const missing = run('skills', 'show', 'nope', '--json');
  assert.equal(missing.status, 1);
  assert.equal(missing.json().error.code, 'NOT_FOUND');
  const bad = run('skills', 'add', '--name', 'Bad_Name', '--description', 'd', '--body', 'b', '--json');
  assert.equal(bad.status, 2);
  assert.match(bad.json().error.message, /not kebab-case/);
  const noFront = h.write('plain.md', '# no front matter\n');
  const r = run('skills', 'add', noFront);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /plain\.md: no front matter/);
});

test('skills: tests, outcomes, evidence, stage and the badge they earn', () => {
  const { h, run, json } = home();
  json('skills', 'add', h.write('SKILL.md', SKILL));
  assert.equal(
    json('skills', 'test', 'release-notes', 'groups', '--check', 'PRs grouped by label').created,
    true,
  );
  assert.equal(json('skills', 'test', 'release-notes', 'groups', '--passed').badge, 'Checked');
  assert.equal(
    json('skills', 'outcome', 'release-notes', 'completed_with_deviation', '--note', 'manual fix').badge,
    'Checked',
  );
  assert.equal(json('skills', 'outcome', 'release-notes', 'completed').badge, 'Proven');
  const bad = run('skills', 'evidence', 'release-notes', 'https://example.com', '--json');
  assert.equal(bad.status, 2);
  assert.match(bad.json().error.message, /tapedeck:\/\/memory\/<id>/);
  assert.equal(run('skills', 'evidence', 'release-notes', 'tapedeck://thread/claude-code:none#1').status, 1);
  assert.deepEqual(json('skills', 'evidence', 'release-notes', 'tapedeck://memory/abc').added, [
    'tapedeck://memory/abc',
  ]);
  assert.deepEqual(
    json('skills', 'evidence', 'release-notes').evidence.map((x: { uri: string }) => x.uri),
    ['tapedeck://memory/abc'],
  );
  const staged = json('skills', 'stage', 'release-notes', 'archived');
  assert.deepEqual([staged.previous_stage, staged.stage], ['active', 'archived']);
  assert.equal(json('skills', 'list').skills.length, 0, 'archived skills leave the default list');
  assert.equal(json('skills', 'list', '--all').skills.length, 1);
  assert.equal(run('skills', 'stage', 'release-notes', 'retired').status, 2);
  assert.equal(run('skills', 'outcome', 'release-notes', 'great').status, 2);
});

test('skills: propose, proposals, accept', () => {
  const { json, run } = home();
  assert.equal(
    json(
      'skills',
      'propose',
      '--name',
      'triage',
      '--description',
      'Use when a bug arrives',
      '--body',
      'Reproduce.',
    ).status,
    'created',
  );
  const p = json('skills', 'propose', '--name', 'triage', '--body', 'Reproduce. Bisect.', '--note', 'bisect');
  assert.equal(p.status, 'proposed');
  assert.equal(json('skills', 'proposals', 'triage').proposals[0].id, p.proposal);
  assert.equal(run('skills', 'accept', 'triage').status, 2, '--proposal is required');
  const acc = json('skills', 'accept', 'triage', '--proposal', p.proposal.slice(0, 6));
  assert.deepEqual([acc.version, acc.stage], [2, 'draft']);
});

test('skills: install with --exclude-from-git is idempotent; import/export round trip; bad import writes nothing', () => {
  const { h, run, json } = home();
  const repo = join(h.home, 'repo');
  mkdirSync(repo);
  spawnSync('git', ['init', '-q'], { cwd: repo });
  json('skills', 'add', h.write('SKILL.md', SKILL));
  for (const added of [true, false]) {
    const r = json('skills', 'install', 'release-notes', '--workspace', repo, '--exclude-from-git');
    assert.equal(r.git_exclude.added, added);
  }
  assert.equal(readFileSync(join(repo, '.agents/skills/release-notes/SKILL.md'), 'utf8'), SKILL);
  assert.equal(
    readFileSync(join(repo, '.git/info/exclude'), 'utf8')
      .split('\n')
      .filter((l) => l === '/.agents/skills/release-notes/').length,
    1,
  );
  const human = tapedeck(['skills', 'install', 'release-notes', '--exclude-from-git'], h.env, { cwd: repo });
  assert.match(
    human.stdout,
    /Already installed v1: .*SKILL\.md\nAlready excluded from git: \/\.agents\/skills\/release-notes\//,
  );

  const out = join(h.home, 'export');
  assert.equal(json('skills', 'export', out).files.length, 1);
  assert.equal(readFileSync(join(out, 'release-notes', 'SKILL.md'), 'utf8'), SKILL);

  const src = join(h.home, 'incoming');
  mkdirSync(join(src, 'good'), { recursive: true });
  mkdirSync(join(src, 'broken'), { recursive: true });
  writeFileSync(join(src, 'good', 'SKILL.md'), '---\nname: good\ndescription: Use for good\n---\nbody\n');
  writeFileSync(join(src, 'broken', 'SKILL.md'), '---\nname: broken\n---\nbody\n');
  const bad = run('skills', 'import', src, '--json');
  assert.equal(bad.status, 2);
  assert.match(bad.json().error.message, /broken\/SKILL\.md: the front matter has no "description:"/);
  assert.equal(bad.json().error.details.problems.length, 1);
  assert.deepEqual(
    json('skills', 'list', '--all').skills.map((s: { name: string }) => s.name),
    ['release-notes'],
  );
  writeFileSync(join(src, 'broken', 'SKILL.md'), '---\nname: broken\ndescription: fixed\n---\nbody\n');
  assert.deepEqual(
    json('skills', 'import', src).skills.map((s: { status: string }) => s.status),
    ['created', 'created'],
  );
});

test('concurrent writers lose nothing', async () => {
  const { h, json } = home();
  json('skills', 'add', h.write('SKILL.md', SKILL));
  const runAsync = (args: string[]) =>
    new Promise<number | null>((resolve) => {
      const p = spawn(process.execPath, [BIN, ...args], { env: h.env, stdio: 'ignore' });
      p.on('close', resolve);
    });
  const codes = await Promise.all([
    ...Array.from({ length: 6 }, (_, i) =>
      runAsync(['skills', 'outcome', 'release-notes', 'completed', '--note', `run ${i}`]),
    ),
    ...Array.from({ length: 6 }, (_, i) =>
      runAsync(['wiki', 'write', `notes/n${i}.md`, '--content', `# Note ${i}`]),
    ),
  ]);
  assert.deepEqual(codes, Array(12).fill(0));
  assert.equal(json('skills', 'show', 'release-notes').trust.outcomes.completed, 6);
  assert.equal(json('wiki', 'list', 'notes').pages.length, 6);
});

test('wiki: write (flag and stdin), show, list, search, rm, versions', () => {
  const { h, run, json } = home();
  const w = json(
    'wiki',
    'write',
    'architecture/payments',
    '--content',
    '# Payments\nStripe webhooks are queued.\n',
  );
  assert.deepEqual(w, {
    path: 'architecture/payments.md',
    title: 'Payments',
    version: 1,
    status: 'created',
    redactions: 0,
  });
  const piped = tapedeck(['wiki', 'write', 'runbooks/deploy.md', '--json'], h.env, {
    input: '# Deploy\nmake ship\n',
  });
  assert.equal(piped.status, 0, piped.stderr);
  assert.equal(piped.json().status, 'created');
  assert.equal(
    run('wiki', 'show', 'architecture/payments.md').stdout,
    '# Payments\nStripe webhooks are queued.\n',
  );
  const page = json('wiki', 'show', 'architecture/payments.md');
  assert.deepEqual([page.path, page.title, page.version], ['architecture/payments.md', 'Payments', 1]);
  assert.deepEqual(
    json('wiki', 'list').pages.map((p: { path: string }) => p.path),
    ['architecture/payments.md', 'runbooks/deploy.md'],
  );
  assert.equal(json('wiki', 'search', 'stripe', 'webhooks').hits[0].path, 'architecture/payments.md');
  assert.equal(json('wiki', 'write', 'architecture/payments.md', '--content', '# Payments\nv2\n').version, 2);
  assert.equal(
    json('wiki', 'show', 'architecture/payments.md', '--version=1').content,
    '# Payments\nStripe webhooks are queued.\n',
  );
  const conflict = run(
    'wiki',
    'write',
    'architecture/payments.md',
    '--content',
    'x',
    '--if-version',
    '1',
    '--json',
  );
  assert.equal(conflict.status, 1);
  assert.equal(conflict.json().error.code, 'CONFLICT');

  assert.deepEqual(json('wiki', 'rm', 'architecture/payments.md'), {
    path: 'architecture/payments.md',
    removed: true,
    version: 2,
  });
  assert.equal(run('wiki', 'show', 'architecture/payments.md').status, 1);
  assert.deepEqual(
    json('wiki', 'show', 'architecture/payments.md', '--history').versions.map(
      (v: { version: number }) => v.version,
    ),
    [1, 2],
  );
  for (const bad of ['../x', '/etc/passwd']) {
    const r = run('wiki', 'write', bad, '--content', 'x', '--json');
    assert.equal(r.status, 2, bad);
    assert.equal(r.json().error.code, 'INVALID_INPUT');
  }
});
