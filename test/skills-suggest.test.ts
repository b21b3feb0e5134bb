/**
 * `tapedeck skills suggest` on real test workspaces (files on disk, a real git repository), through
 * the CLI: the workspace's obvious skill ranks first with its reasons; the task text moves the
 * ranking; `skills load` prints a skill for this turn and writes nothing; `skills install` keeps
 * it out of git on request.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { tapedeck } from './support/cli.js';
import { type TempHome, tempHome } from './support/home.js';

let h: TempHome;
const ok = (...args: string[]) => {
  const r = tapedeck(args, h.env);
  assert.equal(r.status, 0, `tapedeck ${args.join(' ')}: ${r.stderr}`);
  return r;
};

const SKILLS: [string, string, string][] = [
  [
    'prisma-migrations',
    'Create and apply Prisma database migrations safely',
    'Run `npx prisma migrate dev`.',
  ],
  ['docker-release', 'Build, tag and push the Docker image of a service', 'docker build, docker push.'],
  ['python-packaging', 'Publish a Python package to PyPI', 'Use build and twine.'],
  ['github-actions-debug', 'Fix failing GitHub Actions CI workflows', 'Read the failing job log first.'],
  ['go-profiling', 'Profile a Go service with pprof', 'go tool pprof.'],
];

function workspace(name: string, files: Record<string, string>, commits: string[] = []): string {
  const dir = join(h.home, name);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  if (commits.length) {
    const git = (...a: string[]) =>
      execFileSync('git', ['-C', dir, ...a], {
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: 't',
          GIT_AUTHOR_EMAIL: 't@x',
          GIT_COMMITTER_NAME: 't',
          GIT_COMMITTER_EMAIL: 't@x',
        },
        stdio: 'ignore',
      });
    git('init', '-q');
    for (const [i, msg] of commits.entries()) {
      writeFileSync(join(dir, `log-${i}.txt`), msg);
      git('add', '-A');
      git('commit', '-q', '-m', msg);
    }
  }
  return dir;
}

const suggest = (dir: string, ...more: string[]) => ok('skills', 'suggest', dir, '--json', ...more).json();

describe('skills suggest', () => {
  let node: string;
  let py: string;
  before(() => {
    h = tempHome();
    for (const [name, description, body] of SKILLS)
      ok('skills', 'add', '--name', name, '--description', description, '--body', body);
    node = workspace('shop', {
      'package.json': JSON.stringify({
        scripts: { test: 'vitest run', build: 'tsc' },
        dependencies: { '@prisma/client': '5.0.0', express: '4.0.0' },
        devDependencies: { prisma: '5.0.0', vitest: '1.0.0' },
      }),
      'src/a.ts': '',
      'src/b.ts': '',
      'prisma/schema.prisma': '',
    });
    py = workspace(
      'api',
      { Dockerfile: 'FROM python:3.12', 'app/main.py': '', 'app/db.py': '', 'app/util.py': '' },
      ['add image healthcheck', 'image: slim base', 'fix image tag in release'],
    );
  });
  after(() => h.cleanup());

  it("ranks the workspace's obvious skill first, with the reasons", () => {
    const r = suggest(node);
    assert.equal(r.suggestions[0].name, 'prisma-migrations', JSON.stringify(r.suggestions));
    assert.match(r.suggestions[0].reasons[0], /package\.json depends on (@prisma\/client|prisma)/);
    assert.equal(r.suggestions[0].badge, 'Draft');
    assert.ok(r.signals.some((s: string) => /\.ts files/.test(s)));

    const d = suggest(py);
    assert.equal(d.suggestions[0].name, 'docker-release', JSON.stringify(d.suggestions));
    assert.ok(d.suggestions[0].reasons.some((x: string) => x.startsWith('Dockerfile')));
    assert.ok(
      d.signals.some((s: string) => /recent commits say "image"/.test(s)),
      d.signals.join('; '),
    );
    assert.ok(
      d.suggestions.some((s: { name: string }) => s.name === 'python-packaging'),
      'the .py files count',
    );
    assert.ok(!d.suggestions.some((s: { name: string }) => s.name === 'go-profiling'), 'nothing fits Go');
  });

  it('lets the task text move a skill up', () => {
    const r = suggest(node, '--task', 'the GitHub Actions workflow is failing since yesterday');
    assert.equal(r.suggestions[0].name, 'github-actions-debug', JSON.stringify(r.suggestions));
    assert.match(r.suggestions[0].reasons.join('; '), /the task mentions/);
  });

  it('prints suggestions for people with both ways to load them; an empty folder gets a clear answer', () => {
    const human = ok('skills', 'suggest', node).stdout;
    assert.match(human, /^1\. prisma-migrations {2}\[Draft\] — Create and apply/m);
    assert.match(human, /because: package\.json depends on/);
    assert.match(human, /tapedeck skills load NAME/);
    assert.match(human, /tapedeck skills install NAME \[--exclude-from-git\]/);
    const empty = join(h.home, 'empty');
    mkdirSync(empty);
    assert.match(ok('skills', 'suggest', empty).stdout, /^No skill fits/);
  });

  it('loads a skill for this turn without writing anything, or installs it kept out of git', () => {
    const before = readdirSync(py).sort();
    const block = ok('skills', 'load', 'docker-release').stdout;
    assert.match(block, /^<skill name="docker-release" version="1" badge="Draft">\nBuild, tag and push/);
    assert.match(block, /docker build, docker push\.\n<\/skill>\n$/);
    assert.deepEqual(readdirSync(py).sort(), before, 'nothing written');

    ok('skills', 'install', 'docker-release', '--workspace', py, '--exclude-from-git');
    assert.ok(existsSync(join(py, '.agents/skills/docker-release/SKILL.md')));
    assert.match(readFileSync(join(py, '.git/info/exclude'), 'utf8'), /docker-release/);
    const missing = tapedeck(['skills', 'load', 'nope', '--json'], h.env);
    assert.equal(missing.json().error.code, 'NOT_FOUND');
  });
});

describe('installed skills kept in sync at session start', () => {
  let sh: TempHome;
  after(() => sh?.cleanup());

  it('the SessionStart hook answers first; a detached sync then brings installed skills to the current version, keeping local edits', async () => {
    sh = tempHome();
    const run = (...args: string[]) => {
      const r = tapedeck(args, sh.env);
      assert.equal(r.status, 0, `tapedeck ${args.join(' ')}: ${r.stderr}`);
      return r;
    };
    const ws = join(sh.home, 'svc');
    mkdirSync(ws, { recursive: true });
    for (const name of ['deploy', 'rollback']) {
      run('skills', 'add', '--name', name, '--description', `Use when doing ${name}`, '--body', 'v1 steps');
      run('skills', 'install', name, '--workspace', ws);
    }
    const file = (name: string) => join(ws, '.agents/skills', name, 'SKILL.md');
    writeFileSync(file('rollback'), `${readFileSync(file('rollback'), 'utf8')}\nmy own note\n`);
    run('skills', 'update', 'deploy', '--body', 'v2 steps');
    run('skills', 'update', 'rollback', '--body', 'v2 steps');
    assert.match(readFileSync(file('deploy'), 'utf8'), /v1 steps/);

    const { runHook } = await import('./support/hooks.js');
    const payload = { session_id: 's1', cwd: ws, hook_event_name: 'SessionStart', source: 'startup' };
    const r = await runHook('claude-code', 'SessionStart', payload, sh.env);
    assert.equal(r.status, 0, r.stderr);
    assert.doesNotThrow(() => r.json());
    // The sync runs on its own; wait for it (bounded).
    for (let i = 0; i < 100 && !/v2 steps/.test(readFileSync(file('deploy'), 'utf8')); i++)
      await new Promise((res) => setTimeout(res, 100));
    assert.match(readFileSync(file('deploy'), 'utf8'), /v2 steps/, 'refreshed in the background');
    assert.match(readFileSync(file('rollback'), 'utf8'), /my own note/, 'local edits kept');

    const again = run('skills', 'sync', '--workspace', ws, '--json').json();
    assert.deepEqual(
      again.skills.map((s: { name: string; status: string }) => [s.name, s.status]),
      [
        ['deploy', 'unchanged'],
        ['rollback', 'local-changes'],
      ],
    );
  });
});
