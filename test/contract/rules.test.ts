/**
 * Rules on every backend: the resolve order, space isolation, CRUD validation and id prefixes,
 * through the real rule service over each backend's store, plus one scripted sequence whose
 * outputs must be identical on SQLite and PostgreSQL.
 */
import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import type { BackendKind } from '../../src/ports/stores.js';
import { createRuleService } from '../../src/services/rules.js';
import { createSpaceService, type SpaceSettings } from '../../src/services/spaces.js';
import { BACKENDS, backendHome, openTestStores } from '../support/backends.js';

const DAY = 86_400_000;

function lab(t: TestContext, kind: BackendKind, settings: SpaceSettings = {}) {
  const s = openTestStores(kind);
  t.after(s.cleanup);
  const clock = { now: Date.parse('2026-06-01T12:00:00.000Z') };
  const rules = createRuleService({
    store: s.stores.rules,
    spaces: createSpaceService(settings),
    now: () => clock.now,
  });
  return { rules, clock, stores: s.stores };
}

/** Replace random ids with their order of first appearance, so two runs compare equal. */
function normalizeIds<T>(value: T): T {
  const seen = new Map<string, string>();
  const text = JSON.stringify(value, null, 0).replace(
    /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g,
    (id) => {
      if (!seen.has(id)) seen.set(id, `id-${seen.size + 1}`);
      return seen.get(id)!;
    },
  );
  return JSON.parse(text) as T;
}

const codeOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    return (e as { code: string }).code;
  }
  return 'no error';
};

for (const b of BACKENDS) {
  test(`resolve: enabled rules that apply, by priority, specificity, then age (${b.name})`, {
    skip: b.skip,
  }, (t) => {
    const { rules, clock } = lab(t, b.name);
    const add = (body: string, scope?: string, priority?: number, enabled?: boolean) => {
      clock.now += DAY;
      return rules.add({ body, scope, priority, enabled });
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

    const r = rules.resolve({ agent: 'codex', project: '/home/dev/shop/web/src', space: 'work' });
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
    assert.deepEqual(
      rules.resolve({}).rules.map((x) => x.id),
      [urgent.id, globalOld.id, globalNew.id],
    );
    assert.equal(
      rules.resolve({ project: '/home/dev/shopping' }).rules.length,
      3,
      'a prefix ends at a directory',
    );
  });

  test(`rules added in the same millisecond are ordered by id, whatever the storage order (${b.name})`, {
    skip: b.skip,
  }, (t) => {
    const { rules } = lab(t, b.name);
    const ids = ['first', 'second', 'third', 'fourth'].map((body) => rules.add({ body }).id);
    const listed = rules.list().rules.map((r) => r.id);
    assert.deepEqual(listed, [...ids].sort());
    assert.deepEqual(
      rules.resolve({}).rules.map((r) => r.id),
      listed,
      'list and resolve agree',
    );
  });

  test(`space rules stay in their space; CRUD validates; prefixes resolve (${b.name})`, {
    skip: b.skip,
  }, (t) => {
    const { rules } = lab(t, b.name, { envSpace: 'work' });
    const g = rules.add({ body: 'Be brief' });
    const w = rules.add({ body: 'Work rule', scope: 'space:work' });
    const p = rules.add({ body: 'Personal rule', scope: 'space:personal' });
    assert.deepEqual(
      rules.list().rules.map((r) => r.id),
      [w.id, g.id],
    );
    assert.deepEqual(
      rules.list({ space: 'personal' }).rules.map((r) => r.id),
      [p.id, g.id],
    );
    assert.equal(rules.list({ allSpaces: true }).rules.length, 3);
    assert.deepEqual(
      rules.list({ scope: 'space:personal' }).rules.map((r) => r.id),
      [p.id],
    );
    assert.deepEqual(
      rules.list({ scope: 'global' }).rules.map((r) => r.id),
      [g.id],
      'global has no value',
    );

    const u = rules.update(g.id.slice(0, 8), { priority: 5, enabled: false, scope: 'agent:claude-code' });
    assert.deepEqual([u.priority, u.enabled, u.scope], [5, false, 'agent:claude-code']);
    assert.equal(u.created_at, g.created_at, 'created_at is kept on update');
    assert.deepEqual(rules.get(g.id), u, 'what update returned is what is stored');
    assert.equal(
      rules.resolve({ agent: 'claude-code' }).rules.some((r) => r.id === g.id),
      false,
      'disabled',
    );
    assert.deepEqual(rules.remove(g.id), { id: g.id, removed: true });
    assert.equal(
      codeOf(() => rules.get(g.id)),
      'NOT_FOUND',
    );
    assert.equal(
      codeOf(() => rules.remove(g.id)),
      'NOT_FOUND',
    );
    assert.equal(
      codeOf(() => rules.get('zzzzzzzz')),
      'NOT_FOUND',
      'a prefix nothing has',
    );
    assert.equal(
      codeOf(() => rules.get(`${w.id.slice(0, 8)}%`)),
      'NOT_FOUND',
      'LIKE characters are literal',
    );

    const bad: [Record<string, unknown>, RegExp][] = [
      [{ body: '' }, /body is empty/],
      [{ body: 'x'.repeat(10_001) }, /10,001 characters; the limit is 10,000/],
      [{ body: 'x', scope: 'agent:cursor' }, /Unknown agent "cursor"/],
      [{ body: 'x', scope: 'project:relative' }, /absolute path/],
      [{ body: 'x', priority: 1.5 }, /priority must be a whole number/],
    ];
    for (const [input, message] of bad) assert.throws(() => rules.add(input as never), message);
    assert.equal(rules.list({ allSpaces: true }).rules.length, 2, 'nothing half-written');
    const key = `ghp_${'A1b2C3d4E5'.repeat(4)}`;
    assert.doesNotMatch(rules.add({ body: `Use the token ${key} for CI` }).body, /A1b2C3d4E5/);
  });

  test(`unicode, long bodies and LIKE characters in scopes are kept exactly (${b.name})`, {
    skip: b.skip,
  }, (t) => {
    const { rules } = lab(t, b.name);
    const body = `Écris en français — 日本語も可 🦛 ${'ß'.repeat(9_000)}`;
    const r = rules.add({ body, title: 'Ünïcödé «title»' });
    assert.equal(rules.get(r.id).body, body);
    assert.equal(rules.get(r.id).title, 'Ünïcödé «title»');
    const under = rules.add({ body: 'a_b', scope: 'project:/home/dev/a_b' });
    rules.add({ body: 'axb', scope: 'project:/home/dev/axb' });
    const pct = rules.add({ body: 'pct', scope: 'project:/home/dev/100%' });
    assert.deepEqual(
      rules.list({ scope: 'project:/home/dev/a_b' }).rules.map((x) => x.id),
      [under.id],
    );
    assert.deepEqual(
      rules.list({ scope: 'project:/home/dev/100%' }).rules.map((x) => x.id),
      [pct.id],
    );
    assert.deepEqual(
      rules.resolve({ project: '/home/dev/a_b/src' }).rules.map((x) => x.body),
      ['a_b', body],
    );
    assert.deepEqual(rules.list({ scope: 'project:/nowhere' }).rules, [], 'an empty result');
  });

  test(`the engine's rules service runs on this backend (${b.name})`, { skip: b.skip }, (t) => {
    const h = backendHome(b.name);
    const e = h.engine();
    t.after(() => {
      e.close();
      h.cleanup();
    });
    const r = e.rules.add({ body: 'Run the linter', scope: 'agent:codex', priority: 3 });
    const again = h.engine();
    t.after(() => again.close());
    assert.deepEqual(
      again.rules.resolve({ agent: 'codex' }).rules.map((x) => x.id),
      [r.id],
      'seen by a second engine',
    );
  });
}

test('one scripted sequence gives the same answers on every backend', (t) => {
  const run = (kind: BackendKind) => {
    const { rules, clock } = lab(t, kind, { envSpace: 'work' });
    const out: unknown[] = [];
    const step = (label: string, fn: () => unknown) => {
      clock.now += 60_000;
      try {
        out.push([label, fn()]);
      } catch (e) {
        out.push([label, 'error', (e as { code?: string }).code, (e as Error).message]);
      }
    };
    const ids: string[] = [];
    const keep = <T extends { id: string }>(r: T) => {
      ids.push(r.id);
      return r;
    };
    step('add global', () => keep(rules.add({ body: 'Keep commits small' })));
    step('add agent', () => keep(rules.add({ body: 'Run the linter', scope: 'agent:codex', priority: 3 })));
    step('add project', () =>
      keep(rules.add({ body: 'Use pnpm', scope: 'project:/home/dev/shop', title: 'pnpm' })),
    );
    step('add space', () => keep(rules.add({ body: 'Work only', scope: 'space:work', priority: -2 })));
    step('add other space', () => keep(rules.add({ body: 'Home only', scope: 'space:home' })));
    step('add disabled', () => keep(rules.add({ body: 'Off', enabled: false, priority: 900 })));
    step('add bad', () => rules.add({ body: 'x', scope: 'team:core' }));
    step('list', () => rules.list());
    step('list all', () => rules.list({ allSpaces: true }));
    step('resolve', () => rules.resolve({ agent: 'codex', project: '/home/dev/shop/api' }));
    step('update', () => rules.update(ids[1], { enabled: false, body: 'Run the linter twice' }));
    step('update nothing', () => rules.update(ids[1], {}));
    step('enable', () => rules.update(ids[5], { enabled: true }));
    step('resolve again', () => rules.resolve({ agent: 'codex', project: '/home/dev/shop/api' }));
    step('remove', () => rules.remove(ids[0]));
    step('remove again', () => rules.remove(ids[0]));
    step('get missing', () => rules.get('no-such-rule'));
    step('list scope', () => rules.list({ scope: 'space:home' }));
    step('final', () => rules.list({ allSpaces: true }));
    return normalizeIds(out);
  };
  const results = BACKENDS.filter((b) => !b.skip).map((b) => run(b.name));
  for (const r of results.slice(1)) assert.deepEqual(r, results[0]);
  assert.ok(results.length >= 1);
});
