/** Skills on disk: install into a workspace (and out of git), import and export SKILL.md folders. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { Engine } from '../src/app/engine.js';
import { tempHome } from './support/home.js';

function setup(): { e: Engine; dir: string } {
  const h = tempHome();
  const e = h.engine();
  const dir = mkdtempSync(join(tmpdir(), 'tapedeck-skills-'));
  after(() => {
    e.close();
    h.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });
  return { e, dir };
}

function write(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

const git = (cwd: string, ...args: string[]) => spawnSync('git', args, { cwd, encoding: 'utf8' });
const errorOf = (fn: () => unknown): { code: string; message: string } => {
  try {
    fn();
  } catch (e) {
    return e as { code: string; message: string };
  }
  throw new Error('expected an error');
};

test('install writes .agents/skills/<name>/SKILL.md and excludes it from git once', () => {
  const { e, dir } = setup();
  const repo = join(dir, 'repo');
  mkdirSync(join(repo, 'packages', 'web'), { recursive: true });
  assert.equal(git(repo, 'init', '-q').status, 0);
  e.skills.add({ name: 'deploy', description: 'Use when shipping', body: '# Deploy\n' });

  const ws = join(repo, 'packages', 'web');
  const first = e.skills.install('deploy', { workspace: ws, excludeFromGit: true });
  const file = join(ws, '.agents', 'skills', 'deploy', 'SKILL.md');
  assert.equal(first.path, file);
  assert.equal(first.status, 'created');
  assert.equal(readFileSync(file, 'utf8'), e.skills.render('deploy'));
  assert.deepEqual(first.git_exclude, {
    file: join(repo, '.git', 'info', 'exclude'),
    pattern: '/packages/web/.agents/skills/deploy/',
    added: true,
  });
  const again = e.skills.install('deploy', { workspace: ws, excludeFromGit: true });
  assert.equal(again.status, 'unchanged');
  assert.equal(again.git_exclude?.added, false);
  const lines = readFileSync(join(repo, '.git', 'info', 'exclude'), 'utf8').split('\n');
  assert.equal(
    lines.filter((l) => l === '/packages/web/.agents/skills/deploy/').length,
    1,
    'no duplicate line',
  );
  assert.equal(
    git(repo, 'check-ignore', '-q', 'packages/web/.agents/skills/deploy/SKILL.md').status,
    0,
    'git ignores it',
  );
  assert.equal(git(repo, 'status', '--porcelain').stdout, '', 'nothing to commit');

  // A newer version replaces a copy Tapedeck wrote; local edits are protected unless forced.
  e.skills.update('deploy', { body: '# Deploy v2\n' });
  assert.equal(e.skills.install('deploy', { workspace: ws }).status, 'updated');
  writeFileSync(file, 'my local edit');
  assert.equal(errorOf(() => e.skills.install('deploy', { workspace: ws })).code, 'CONFLICT');
  assert.equal(readFileSync(file, 'utf8'), 'my local edit');
  assert.equal(e.skills.install('deploy', { workspace: ws, force: true, version: 1 }).status, 'updated');
  assert.equal(readFileSync(file, 'utf8'), e.skills.render('deploy', { version: 1 }));
});

test('install outside a git repository writes the file and excludes nothing', () => {
  const { e, dir } = setup();
  e.skills.add({ name: 'deploy', description: 'Use when shipping', body: 'x' });
  const r = e.skills.install('deploy', { workspace: dir, excludeFromGit: true });
  assert.equal(r.git_exclude, null);
  assert.equal(
    readFileSync(join(dir, '.agents', 'skills', 'deploy', 'SKILL.md'), 'utf8'),
    e.skills.render('deploy'),
  );
  assert.equal(
    errorOf(() => e.skills.install('deploy', { workspace: join(dir, 'missing') })).code,
    'NOT_FOUND',
  );
});

test('install into a git worktree uses the shared info/exclude', () => {
  const { e, dir } = setup();
  const main = join(dir, 'main');
  mkdirSync(main);
  git(main, 'init', '-q');
  git(main, '-c', 'user.email=a@b.c', '-c', 'user.name=a', 'commit', '-q', '--allow-empty', '-m', 'init');
  assert.equal(git(main, 'worktree', 'add', '-q', join(dir, 'wt')).status, 0);
  e.skills.add({ name: 'deploy', description: 'Use when shipping', body: 'x' });
  const r = e.skills.install('deploy', { workspace: join(dir, 'wt'), excludeFromGit: true });
  assert.equal(r.git_exclude?.pattern, '/.agents/skills/deploy/');
  assert.equal(git(join(dir, 'wt'), 'check-ignore', '-q', '.agents/skills/deploy/SKILL.md').status, 0);
});

const ODD = [
  '---\r\n',
  '# written by hand\r\n',
  "name: 'pdf-forms'\r\n",
  'description: "Use when filling PDF forms: text fields, checkboxes"   # quoted\r\n',
  'allowed-tools: [Read, Write]\r\n',
  'metadata:\r\n',
  '  owner: docs-team\r\n',
  '---\r\n',
  '\r\n',
  '# PDF forms\r\n',
  'Use `pdftk`.\r\n',
].join('');

test('import then export reproduces every SKILL.md byte for byte', () => {
  const { e, dir } = setup();
  const src = join(dir, 'src');
  write(join(src, 'pdf-forms', 'SKILL.md'), ODD);
  write(
    join(src, 'deploy', 'SKILL.md'),
    '---\nname: deploy\ndescription: Use when shipping\n---\n# Deploy\n\nno trailing newline',
  );
  mkdirSync(join(src, 'not-a-skill'));
  const r = e.skills.importDir(src);
  assert.deepEqual(
    r.skills.map((s) => [s.name, s.status, s.version]),
    [
      ['deploy', 'created', 1],
      ['pdf-forms', 'created', 1],
    ],
  );
  assert.deepEqual(r.skipped, [join(src, 'not-a-skill')]);
  assert.equal(e.skills.show('pdf-forms').description, 'Use when filling PDF forms: text fields, checkboxes');

  const out = join(dir, 'out');
  const x = e.skills.exportDir(out);
  assert.equal(x.files.length, 2);
  assert.deepEqual(readdirSync(out).sort(), ['deploy', 'pdf-forms']);
  for (const name of ['deploy', 'pdf-forms'])
    assert.deepEqual(
      readFileSync(join(out, name, 'SKILL.md')),
      readFileSync(join(src, name, 'SKILL.md')),
      name,
    );

  // Importing the export again changes nothing; a changed file is a new version.
  assert.deepEqual(
    e.skills.importDir(out).skills.map((s) => s.status),
    ['unchanged', 'unchanged'],
  );
  write(
    join(out, 'deploy', 'SKILL.md'),
    '---\nname: deploy\ndescription: Use when shipping\n---\n# Deploy v2\n',
  );
  assert.deepEqual(e.skills.importDir(join(out, 'deploy')).skills, [
    { name: 'deploy', status: 'updated', version: 2 },
  ]);
});

test('import is all or nothing and names each bad file and its problem', () => {
  const { e, dir } = setup();
  const src = join(dir, 'src');
  write(join(src, 'good', 'SKILL.md'), '---\nname: good\ndescription: Use for good\n---\nbody\n');
  write(join(src, 'no-front', 'SKILL.md'), '# Just a heading\n');
  write(join(src, 'mismatch', 'SKILL.md'), '---\nname: other-name\ndescription: d\n---\nbody\n');
  write(join(src, 'bad-name', 'SKILL.md'), '---\nname: Bad_Name\ndescription: d\n---\nbody\n');
  const err = errorOf(() => e.skills.importDir(src)) as {
    code: string;
    message: string;
    details: { problems: unknown[] };
  };
  assert.equal(err.code, 'INVALID_INPUT');
  assert.match(err.message, /Nothing imported: 3 of 4/);
  assert.match(err.message, new RegExp(`${join(src, 'no-front', 'SKILL.md')}: no front matter`));
  assert.match(
    err.message,
    /mismatch\/SKILL\.md: the name "other-name" does not match its folder "mismatch"/,
  );
  assert.match(err.message, /bad-name\/SKILL\.md: the name "Bad_Name" is not kebab-case/);
  assert.equal(err.details.problems.length, 3);
  assert.deepEqual(e.skills.list({ includeArchived: true }), [], 'the good one was not imported either');

  assert.equal(errorOf(() => e.skills.importDir(join(dir, 'nowhere'))).code, 'NOT_FOUND');
  mkdirSync(join(dir, 'empty'));
  assert.match(errorOf(() => e.skills.importDir(join(dir, 'empty'))).message, /no SKILL\.md/);
});
