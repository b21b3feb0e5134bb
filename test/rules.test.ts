/** Standing rules: validation, resolve order, space isolation; the CLI contract end to end. */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { tapedeck } from './support/cli.js';
import { tempHome } from './support/home.js';
import { DAY, memoryLab } from './support/memories.js';

test('resolve returns the enabled rules that apply, by priority, then specificity, then age', () => {
  const lab = memoryLab();
  after(lab.cleanup);
  const add = (body: string, scope?: string, priority?: number, enabled?: boolean) => {
    lab.clock.now += DAY;
    return lab.rules.add({ body, scope, priority, enabled });
  };
  const globalOld = add('Answer in English');
  const space = add('Never push to main in the work space', 'space:work');
  const agent = add('Codex: run the tests before every commit', 'agent:codex');
  const projectRoot = add('Use pnpm in the shop', 'project:/home/dev/shop');
  const projectDeep = add('The web app uses vitest', 'project:/home/dev/shop/web/');
  const urgent = add('Never print secrets', 'global', 10);
  const globalNew = add('Keep answers short');
  add('Disabled rule', 'global', 100, false);
  add('Other agent', 'agent:gemini-cli', 50);
  add('Other project', 'project:/home/dev/blog', 50);
  add('Other space', 'space:personal', 50);

  const r = lab.rules.resolve({ agent: 'codex', project: '/home/dev/shop/web/src', space: 'work' });
  assert.equal(r.space, 'work');
  assert.deepEqual(
    r.rules.map((x) => x.id),
    [urgent.id, projectDeep.id, projectRoot.id, agent.id, space.id, globalOld.id, globalNew.id],
  );
  assert.deepEqual(
    r.rules.map((x) => x.reason),
    [
      'global',
      'project /home/dev/shop/web',
      'project /home/dev/shop',
      'agent codex',
      'space work',
      'global',
      'global',
    ],
  );
  const plain = lab.rules.resolve({});
  assert.deepEqual(
    plain.rules.map((x) => x.id),
    [urgent.id, globalOld.id, globalNew.id],
    'no agent, project or space rules',
  );
  assert.equal(plain.space, 'default');
  assert.equal(
    lab.rules.resolve({ project: '/home/dev/shopping' }).rules.length,
    3,
    'a project prefix ends at a directory',
  );
});

test('rules of other spaces stay out of list unless asked; CRUD validates', () => {
  const lab = memoryLab({ envSpace: 'work' });
  after(lab.cleanup);
  const g = lab.rules.add({ body: 'Be brief' });
  const w = lab.rules.add({ body: 'Work rule', scope: 'space:work' });
  const p = lab.rules.add({ body: 'Personal rule', scope: 'space:personal' });
  assert.deepEqual(
    lab.rules.list().rules.map((r) => r.id),
    [w.id, g.id],
    'TAPEDECK_SPACE=work',
  );
  assert.deepEqual(
    lab.rules.list({ space: 'personal' }).rules.map((r) => r.id),
    [p.id, g.id],
  );
  assert.equal(lab.rules.list({ allSpaces: true }).rules.length, 3);
  assert.deepEqual(
    lab.rules.list({ scope: 'space:personal' }).rules.map((r) => r.id),
    [p.id],
  );
  assert.equal(lab.rules.resolve({}).space, 'work');

  const u = lab.rules.update(g.id.slice(0, 8), { priority: 5, enabled: false, scope: 'agent:claude-code' });
  assert.equal(u.priority, 5);
  assert.equal(u.enabled, false);
  assert.equal(u.scope, 'agent:claude-code');
  assert.equal(
    lab.rules.resolve({ agent: 'claude-code' }).rules.some((r) => r.id === g.id),
    false,
    'disabled',
  );
  assert.deepEqual(lab.rules.remove(g.id), { id: g.id, removed: true });
  assert.throws(() => lab.rules.get(g.id), { code: 'NOT_FOUND' });

  const bad: [Record<string, unknown>, RegExp][] = [
    [{ body: '' }, /body is empty/],
    [{ body: 'x'.repeat(10_001) }, /10,001 characters; the limit is 10,000/],
    [{ body: 'x', scope: 'agent:cursor' }, /Unknown agent "cursor".*claude-code/],
    [{ body: 'x', scope: 'project:relative' }, /absolute path/],
    [{ body: 'x', scope: 'space:Bad Name' }, /Invalid space/],
    [{ body: 'x', scope: 'team:core' }, /Invalid scope "team:core"/],
    [{ body: 'x', priority: 1.5 }, /priority must be a whole number/],
  ];
  for (const [input, message] of bad) assert.throws(() => lab.rules.add(input as never), message);
  assert.throws(() => lab.rules.resolve({ agent: 'cursor' }), { code: 'INVALID_INPUT' });
  assert.throws(() => lab.rules.update(w.id, {}), /Nothing to update/);
  const key = `ghp_${'A1b2C3d4E5'.repeat(4)}`;
  assert.doesNotMatch(lab.rules.add({ body: `Use the token ${key} for CI` }).body, /A1b2C3d4E5/);
});

test('CLI: rules add/list/update/remove/resolve with --json', () => {
  const h = tempHome();
  after(h.cleanup);
  const add = (...args: string[]) => {
    const r = tapedeck(['rules', 'add', ...args, '--json'], h.env);
    assert.equal(r.status, 0, r.stderr);
    return r.json();
  };
  const g = add('Keep commits small');
  const a = add('Run', 'the', 'linter', '--scope', 'agent:codex', '--priority', '3');
  const p = add('Use pnpm', '--scope', 'project:/home/dev/shop', '--title', 'pnpm only');
  assert.equal(a.body, 'Run the linter');
  assert.equal(p.title, 'pnpm only');
  assert.deepEqual(Object.keys(g).sort(), [
    'body',
    'created_at',
    'enabled',
    'id',
    'priority',
    'scope',
    'title',
    'updated_at',
  ]);

  const res = tapedeck(
    ['rules', 'resolve', '--agent', 'codex', '--project', '/home/dev/shop/api', '--json'],
    h.env,
  );
  assert.equal(res.status, 0, res.stderr);
  const doc = res.json();
  assert.equal(doc.agent, 'codex');
  assert.equal(doc.project, '/home/dev/shop/api');
  assert.equal(doc.space, 'default');
  assert.deepEqual(
    doc.rules.map((r: { id: string }) => r.id),
    [a.id, p.id, g.id],
  );

  const human = tapedeck(['rules', 'resolve', '--agent', 'codex'], h.env);
  assert.match(human.stdout, /1\. Run the linter/);

  const u = tapedeck(['rules', 'update', a.id, '--disable', '--json'], h.env);
  assert.equal(u.json().enabled, false);
  assert.equal(tapedeck(['rules', 'list', '--json'], h.env).json().rules.length, 3);
  const noYes = tapedeck(['rules', 'remove', g.id], h.env);
  assert.equal(noYes.status, 2, noYes.stderr);
  assert.match(noYes.stderr, /--yes/);
  assert.equal(tapedeck(['rules', 'remove', g.id, '--yes', '--json'], h.env).json().removed, true);
  const bad = tapedeck(['rules', 'add', 'x', '--scope', 'agent:cursor', '--json'], h.env);
  assert.equal(bad.status, 2);
  assert.equal(bad.json().error.code, 'INVALID_INPUT');
  const here = tapedeck(['rules', 'add', 'Local rule', '--scope', 'project:.', '--json'], h.env, {
    cwd: h.home,
  });
  assert.equal(here.json().scope, `project:${h.home}`, 'a relative project scope is taken from the cwd');
  const missing = tapedeck(['rules', 'update', 'no-such-rule', '--priority', '1', '--json'], h.env);
  assert.equal(missing.status, 1);
  assert.equal(missing.json().error.code, 'NOT_FOUND');
});
