/**
 * Rules on every backend: the resolve order, space isolation, CRUD validation and id prefixes,
 * through the real rule service over each backend's store, plus one scripted sequence whose
 * outputs must be identical on SQLite and PostgreSQL.
 */
import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import { RULE_TEXT_FIELDS, type RuleTextField } from '../../src/core/rules.js';
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

const codeOf = async (fn: () => Promise<unknown>): Promise<string> => {
  try {
    await fn();
  } catch (e) {
    return (e as { code: string }).code;
  }
  return 'no error';
};

for (const b of BACKENDS) {
  test(`resolve: enabled rules that apply, by priority, specificity, then age (${b.name})`, {
    skip: b.skip,
  }, async (t) => {
    const { rules, clock } = lab(t, b.name);
    const add = async (body: string, scope?: string, priority?: number, enabled?: boolean) => {
      clock.now += DAY;
      return await rules.add({ body, scope, priority, enabled });
    };
    const globalOld = await add('Answer in English');
    const space = await add('Never push to main in the work space', 'space:work');
    const agent = await add('Codex: run the tests before every commit', 'agent:codex');
    const projectRoot = await add('Use pnpm in the shop', 'project:/home/dev/shop');
    const projectDeep = await add('The web app uses vitest', 'project:/home/dev/shop/web/');
    const urgent = await add('Never print secrets', 'global', 10);
    const globalNew = await add('Keep answers short');
    await add('Disabled rule', 'global', 100, false);
    await add('Other agent', 'agent:gemini-cli', 50);
    await add('Other project', 'project:/home/dev/blog', 50);
    await add('Other space', 'space:personal', 50);

    const r = await rules.resolve({ agent: 'codex', project: '/home/dev/shop/web/src', space: 'work' });
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
      (await rules.resolve({})).rules.map((x) => x.id),
      [urgent.id, globalOld.id, globalNew.id],
    );
    assert.equal(
      (await rules.resolve({ project: '/home/dev/shopping' })).rules.length,
      3,
      'a prefix ends at a directory',
    );
  });

  test(`rules added in the same millisecond are ordered by id, whatever the storage order (${b.name})`, {
    skip: b.skip,
  }, async (t) => {
    const { rules } = lab(t, b.name);
    const ids: string[] = [];
    for (const body of ['first', 'second', 'third', 'fourth']) ids.push((await rules.add({ body })).id);
    const listed = (await rules.list()).rules.map((r) => r.id);
    assert.deepEqual(listed, [...ids].sort());
    assert.deepEqual(
      (await rules.resolve({})).rules.map((r) => r.id),
      listed,
      'list and resolve agree',
    );
  });

  test(`space rules stay in their space; CRUD validates; prefixes resolve (${b.name})`, {
    skip: b.skip,
  }, async (t) => {
    const { rules } = lab(t, b.name, { envSpace: 'work' });
    const g = await rules.add({ body: 'Be brief' });
    const w = await rules.add({ body: 'Work rule', scope: 'space:work' });
    const p = await rules.add({ body: 'Personal rule', scope: 'space:personal' });
    assert.deepEqual(
      (await rules.list()).rules.map((r) => r.id),
      [w.id, g.id],
    );
    assert.deepEqual(
      (await rules.list({ space: 'personal' })).rules.map((r) => r.id),
      [p.id, g.id],
    );
    assert.equal((await rules.list({ allSpaces: true })).rules.length, 3);
    assert.deepEqual(
      (await rules.list({ scope: 'space:personal' })).rules.map((r) => r.id),
      [p.id],
    );
    assert.deepEqual(
      (await rules.list({ scope: 'global' })).rules.map((r) => r.id),
      [g.id],
      'global has no value',
    );

    const u = await rules.update(g.id.slice(0, 8), {
      priority: 5,
      enabled: false,
      scope: 'agent:claude-code',
    });
    assert.deepEqual([u.priority, u.enabled, u.scope], [5, false, 'agent:claude-code']);
    assert.equal(u.created_at, g.created_at, 'created_at is kept on update');
    assert.deepEqual(await rules.get(g.id), u, 'what update returned is what is stored');
    assert.equal(
      (await rules.resolve({ agent: 'claude-code' })).rules.some((r) => r.id === g.id),
      false,
      'disabled',
    );
    assert.deepEqual(await rules.remove(g.id), { id: g.id, removed: true });
    assert.equal(await codeOf(() => rules.get(g.id)), 'NOT_FOUND');
    assert.equal(await codeOf(() => rules.remove(g.id)), 'NOT_FOUND');
    assert.equal(await codeOf(() => rules.get('zzzzzzzz')), 'NOT_FOUND', 'a prefix nothing has');
    assert.equal(
      await codeOf(() => rules.get(`${w.id.slice(0, 8)}%`)),
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
    for (const [input, message] of bad) await assert.rejects(() => rules.add(input as never), message);
    await assert.rejects(() => rules.resolve({ agent: 'cursor' }), { code: 'INVALID_INPUT' });
    await assert.rejects(() => rules.update(w.id, {}), /Nothing to update/);
    assert.equal((await rules.list({ allSpaces: true })).rules.length, 2, 'nothing half-written');
    const key = `ghp_${'A1b2C3d4E5'.repeat(4)}`;
    assert.doesNotMatch((await rules.add({ body: `Use the token ${key} for CI` })).body, /A1b2C3d4E5/);
  });

  test(`concurrent changes to one rule all land; concurrent adds all land (${b.name})`, {
    skip: b.skip,
  }, async (t) => {
    const { rules } = lab(t, b.name);
    const r = await rules.add({ body: 'Review every migration' });
    // Each update reads the rule and writes it back: without a row lock (PostgreSQL) or the
    // one-lane transaction (SQLite) one of them would overwrite the other's field.
    await Promise.all([
      rules.update(r.id, { priority: 7 }),
      rules.update(r.id, { enabled: false }),
      rules.update(r.id, { title: 'Migrations' }),
      rules.update(r.id, { note: 'After the outage' }),
    ]);
    const got = await rules.get(r.id);
    assert.deepEqual(
      [got.priority, got.enabled, got.title, got.note],
      [7, false, 'Migrations', 'After the outage'],
    );
    const added = await Promise.all(Array.from({ length: 20 }, (_, i) => rules.add({ body: `Rule ${i}` })));
    assert.equal((await rules.list({ allSpaces: true })).rules.length, 21);
    assert.equal(new Set(added.map((x) => x.id)).size, 20);
  });

  // Every optional text field (note, owner, …: core/rules.ts RULE_TEXT_FIELDS) behaves alike.
  for (const [field, max] of Object.entries(RULE_TEXT_FIELDS) as [RuleTextField, number][])
    test(`a rule's ${field} is kept, changed, cleared and redacted (${b.name})`, {
      skip: b.skip,
    }, async (t) => {
      const { rules } = lab(t, b.name);
      const r = await rules.add({ body: 'Squash before merging', [field]: 'Agreed in the March review' });
      assert.equal(r[field], 'Agreed in the March review');
      assert.equal((await rules.get(r.id))[field], 'Agreed in the March review');
      assert.equal((await rules.update(r.id, { [field]: ' See the handbook ' }))[field], 'See the handbook');
      assert.equal(
        (await rules.update(r.id, { priority: 2 }))[field],
        'See the handbook',
        'kept when not given',
      );
      assert.equal((await rules.update(r.id, { [field]: '' }))[field], null, "'' clears it");
      assert.equal((await rules.get(r.id))[field], null);
      assert.equal(
        (await rules.update(r.id, { [field]: 'again' }))[field],
        'again',
        'a field alone is an update',
      );
      assert.equal((await rules.add({ body: 'None given' }))[field], null);
      const key = `ghp_${'A1b2C3d4E5'.repeat(4)}`;
      assert.doesNotMatch(
        (await rules.add({ body: 'x', [field]: `token ${key}` }))[field] ?? '',
        /A1b2C3d4E5/,
      );
      await assert.rejects(
        () => rules.add({ body: 'x', [field]: 'n'.repeat(max + 1) }),
        new RegExp(`${field} is over ${max.toLocaleString('en-US')}`),
      );
    });

  test(`unicode, long bodies and LIKE characters in scopes are kept exactly (${b.name})`, {
    skip: b.skip,
  }, async (t) => {
    const { rules } = lab(t, b.name);
    const body = `Écris en français — 日本語も可 🦛 ${'ß'.repeat(9_000)}`;
    const r = await rules.add({ body, title: 'Ünïcödé «title»' });
    assert.equal((await rules.get(r.id)).body, body);
    assert.equal((await rules.get(r.id)).title, 'Ünïcödé «title»');
    const under = await rules.add({ body: 'a_b', scope: 'project:/home/dev/a_b' });
    await rules.add({ body: 'axb', scope: 'project:/home/dev/axb' });
    const pct = await rules.add({ body: 'pct', scope: 'project:/home/dev/100%' });
    assert.deepEqual(
      (await rules.list({ scope: 'project:/home/dev/a_b' })).rules.map((x) => x.id),
      [under.id],
    );
    assert.deepEqual(
      (await rules.list({ scope: 'project:/home/dev/100%' })).rules.map((x) => x.id),
      [pct.id],
    );
    assert.deepEqual(
      (await rules.resolve({ project: '/home/dev/a_b/src' })).rules.map((x) => x.body),
      ['a_b', body],
    );
    assert.deepEqual((await rules.list({ scope: 'project:/nowhere' })).rules, [], 'an empty result');
  });

  test(`the engine's rules service runs on this backend (${b.name})`, { skip: b.skip }, async (t) => {
    const h = backendHome(b.name);
    const e = h.engine();
    t.after(() => {
      e.close();
      h.cleanup();
    });
    const r = await e.rules.add({ body: 'Run the linter', scope: 'agent:codex', priority: 3 });
    const again = h.engine();
    t.after(() => again.close());
    assert.deepEqual(
      (await again.rules.resolve({ agent: 'codex' })).rules.map((x) => x.id),
      [r.id],
      'seen by a second engine',
    );
  });
}

test('one scripted sequence gives the same answers on every backend', async (t) => {
  const run = async (kind: BackendKind) => {
    const { rules, clock } = lab(t, kind, { envSpace: 'work' });
    const out: unknown[] = [];
    const step = async (label: string, fn: () => Promise<unknown>) => {
      clock.now += 60_000;
      try {
        out.push([label, await fn()]);
      } catch (e) {
        out.push([label, 'error', (e as { code?: string }).code, (e as Error).message]);
      }
    };
    const ids: string[] = [];
    const keep = <T extends { id: string }>(r: T) => {
      ids.push(r.id);
      return r;
    };
    await step('add global', async () => keep(await rules.add({ body: 'Keep commits small' })));
    await step('add agent', async () =>
      keep(await rules.add({ body: 'Run the linter', scope: 'agent:codex', priority: 3 })),
    );
    await step('add project', async () =>
      keep(await rules.add({ body: 'Use pnpm', scope: 'project:/home/dev/shop', title: 'pnpm' })),
    );
    await step('add space', async () =>
      keep(await rules.add({ body: 'Work only', scope: 'space:work', priority: -2 })),
    );
    await step('add other space', async () =>
      keep(await rules.add({ body: 'Home only', scope: 'space:home' })),
    );
    await step('add disabled', async () =>
      keep(await rules.add({ body: 'Off', enabled: false, priority: 900 })),
    );
    await step('add bad', () => rules.add({ body: 'x', scope: 'team:core' }));
    await step('list', () => rules.list());
    await step('list all', () => rules.list({ allSpaces: true }));
    await step('resolve', () => rules.resolve({ agent: 'codex', project: '/home/dev/shop/api' }));
    await step('update', () => rules.update(ids[1], { enabled: false, body: 'Run the linter twice' }));
    await step('update nothing', () => rules.update(ids[1], {}));
    await step('enable', () => rules.update(ids[5], { enabled: true }));
    await step('resolve again', () => rules.resolve({ agent: 'codex', project: '/home/dev/shop/api' }));
    await step('remove', () => rules.remove(ids[0]));
    await step('remove again', () => rules.remove(ids[0]));
    await step('get missing', () => rules.get('no-such-rule'));
    await step('list scope', () => rules.list({ scope: 'space:home' }));
    await step('final', () => rules.list({ allSpaces: true }));
    return normalizeIds(out);
  };
  const results: unknown[] = [];
  for (const b of BACKENDS.filter((x) => !x.skip)) results.push(await run(b.name));
  for (const r of results.slice(1)) assert.deepEqual(r, results[0]);
  assert.ok(results.length >= 1);
});
