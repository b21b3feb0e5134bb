/**
 * Standing rules: the CLI contract end to end. The service (resolve order, space isolation,
 * validation) is specified on every backend by test/contract/rules.test.ts.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { tapedeck } from './support/cli.js';
import { tempHome } from './support/home.js';

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
    'note',
    'owner',
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

  const u = tapedeck(['rules', 'update', a.id, '--disable', '--note', 'from the review', '--json'], h.env);
  assert.equal(u.json().enabled, false);
  assert.equal(u.json().note, 'from the review');
  assert.equal(g.note, null, 'no note unless given');
  assert.match(tapedeck(['rules', 'list', '--all-spaces'], h.env).stdout, /note: from the review/);
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
