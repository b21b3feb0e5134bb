/**
 * API keys on every backend: only digests are stored, verify/revoke/expiry, conflicts, listing
 * order, through the real key service over each backend's store, plus one scripted sequence whose
 * outputs must be identical on SQLite and PostgreSQL.
 */
import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import type { BackendKind, Stores } from '../../src/ports/stores.js';
import { createKeyService, hashKey } from '../../src/services/keys.js';
import { parseDatabaseUrl } from '../../src/storage/postgres/open.js';
import { connectPgSync } from '../../src/storage/postgres/sync-client.js';
import { openDatabase } from '../../src/storage/sqlite/open.js';
import { BACKENDS, openTestStores } from '../support/backends.js';

function lab(t: TestContext, kind: BackendKind) {
  const s = openTestStores(kind);
  t.after(s.cleanup);
  const clock = { now: Date.parse('2026-06-01T12:00:00Z') };
  const keys = createKeyService({ store: s.stores.keys, now: () => clock.now });
  return { keys, clock, stores: s.stores, url: s.url };
}

/** Every row of api_keys as the backend holds it (hash as hex), read behind the store's back. */
function rawRows(t: TestContext, stores: Stores, url?: string): Record<string, unknown>[] {
  const hex = (rows: Record<string, unknown>[]) =>
    rows.map((r) => ({ ...r, hash: Buffer.from(r.hash as Uint8Array).toString('hex') }));
  if (stores.kind === 'sqlite') {
    const db = openDatabase(stores.location, { readonly: true });
    t.after(() => db.close());
    return hex(db.prepare('SELECT * FROM api_keys ORDER BY id').all() as Record<string, unknown>[]);
  }
  const { url: plain, schema } = parseDatabaseUrl(url!);
  const pg = connectPgSync(plain, { searchPath: schema });
  t.after(() => pg.close());
  return hex(pg.query('SELECT * FROM api_keys ORDER BY id'));
}

for (const b of BACKENDS) {
  test(`a key is tapedeck_ + 32 random bytes; only its SHA-256 is stored (${b.name})`, {
    skip: b.skip,
  }, async (t) => {
    const { keys, stores, url } = lab(t, b.name);
    const { key, record } = await keys.create({ name: 'ci', scope: 'write', spaces: ['work', 'work'] });
    assert.match(key, /^tapedeck_[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(record.spaces, ['work']);
    assert.equal(record.prefix, key.slice(0, 'tapedeck_'.length + 4));
    const [row] = rawRows(t, stores, url);
    assert.equal(row.hash, Buffer.from(hashKey(key)).toString('hex'));
    assert.equal((row.hash as string).length, 64, '32 bytes');
    assert.ok(!JSON.stringify(row).includes(key.slice('tapedeck_'.length + 4)), 'the secret is not stored');
    assert.equal(row.spaces, '["work"]', 'spaces as a JSON list in text');
    assert.notEqual((await keys.create({ name: 'other' })).key, key);
    assert.equal(Buffer.from(key.slice('tapedeck_'.length), 'base64url').length, 32, '32 random bytes');
  });

  test(`verify: good, malformed, unknown, revoked, expired; last use recorded (${b.name})`, {
    skip: b.skip,
  }, async (t) => {
    const { keys, clock } = lab(t, b.name);
    const { key, record } = await keys.create({ name: 'a', expires: '1h' });
    const ok = await keys.verify(key);
    assert.ok(ok.ok && ok.key.id === record.id && ok.key.scope === 'read');
    assert.ok(ok.ok && !('hash' in ok.key), 'the digest is not handed out');
    assert.equal((await keys.list())[0].last_used_at, '2026-06-01T12:00:00.000Z');
    assert.deepEqual(await keys.verify('Bearer x'), { ok: false, reason: 'malformed' });
    assert.deepEqual(await keys.verify(`tapedeck_${'Q'.repeat(43)}`), { ok: false, reason: 'unknown' });
    clock.now += 3_600_000;
    assert.deepEqual(
      await keys.verify(key),
      { ok: false, reason: 'expired' },
      'expired at the exact instant',
    );
    assert.equal(await keys.hasActiveKeys(), false);
    const b2 = await keys.create({ name: 'b' });
    assert.equal(await keys.hasActiveKeys(), true);
    clock.now += 1000;
    const revoked = await keys.revoke(b2.record.id);
    assert.equal(revoked.revoked_at, '2026-06-01T13:00:01.000Z');
    assert.deepEqual(await keys.verify(b2.key), { ok: false, reason: 'revoked' });
    clock.now += 1000;
    assert.equal(
      (await keys.revoke(b2.record.id)).revoked_at,
      '2026-06-01T13:00:01.000Z',
      'the first revocation time is kept',
    );
    assert.equal(await keys.hasActiveKeys(), false);
    await assert.rejects(() => keys.revoke('key_missing'), { code: 'NOT_FOUND' });
  });

  test(`bad input is refused before anything is stored (${b.name})`, { skip: b.skip }, async (t) => {
    const { keys } = lab(t, b.name);
    await assert.rejects(() => keys.create({ name: '' }), /needs a name/);
    await assert.rejects(() => keys.create({ name: 'x', scope: 'root' }), /Unknown scope/);
    await assert.rejects(() => keys.create({ name: 'x', spaces: ['Not A Space'] }), /Invalid space/);
    await assert.rejects(() => keys.create({ name: 'x', expires: 'tomorrowish' }), /not a span/);
    assert.deepEqual(await keys.list(), []);
    assert.equal(await keys.hasActiveKeys(), false);
  });

  test(`the store refuses a second key with the same id or digest with CONFLICT (${b.name})`, {
    skip: b.skip,
  }, async (t) => {
    const { stores } = lab(t, b.name);
    const base = {
      id: 'key_1',
      name: 'one',
      prefix: 'tapedeck_abcd',
      scope: 'read' as const,
      spaces: [],
      created_at: '2026-06-01T12:00:00.000Z',
      expires_at: null,
      revoked_at: null,
      last_used_at: null,
      hash: new Uint8Array(32).fill(7),
    };
    await stores.keys.insert(base);
    const conflict = { code: 'CONFLICT', message: 'A key with this id or secret exists already' };
    await assert.rejects(() => stores.keys.insert({ ...base, hash: new Uint8Array(32).fill(8) }), conflict);
    await assert.rejects(() => stores.keys.insert({ ...base, id: 'key_2' }), conflict);
    assert.equal((await stores.keys.list()).length, 1);
    assert.deepEqual(
      (await stores.keys.byHash(new Uint8Array(32).fill(7)))?.hash,
      new Uint8Array(32).fill(7),
    );
    assert.equal(await stores.keys.byHash(new Uint8Array(32).fill(9)), undefined);
    assert.equal(await stores.keys.revoke('key_none', '2026-06-02T00:00:00.000Z'), false);
    assert.equal(await stores.keys.get('key_none'), undefined);
  });

  test(`list: newest first, ties by id; unicode names kept (${b.name})`, { skip: b.skip }, async (t) => {
    const { keys, clock } = lab(t, b.name);
    const a = await keys.create({ name: 'Ünïcödé 🦛 key' });
    const b1 = await keys.create({ name: 'same time' });
    clock.now += 1000;
    const c = await keys.create({ name: 'newest', scope: 'admin', spaces: ['work', 'home'] });
    const tie = [a.record.id, b1.record.id].sort();
    assert.deepEqual(
      (await keys.list()).map((k) => k.id),
      [c.record.id, ...tie],
    );
    assert.equal((await keys.list()).find((k) => k.id === a.record.id)?.name, 'Ünïcödé 🦛 key');
    assert.deepEqual((await keys.list())[0].spaces, ['work', 'home'], 'spaces keep their order');
  });
}

test('one scripted sequence gives the same answers on every backend', async (t) => {
  const run = async (kind: BackendKind) => {
    const { keys, clock } = lab(t, kind);
    const seen = new Map<string, string>();
    // Keys and ids are random: name them by first appearance.
    const norm = (v: unknown) =>
      JSON.parse(
        JSON.stringify(v ?? null).replace(/tapedeck_[A-Za-z0-9_-]{4,43}|key_[0-9a-f]{12}/g, (s) => {
          if (!seen.has(s)) seen.set(s, `<${seen.size}>`);
          return seen.get(s)!;
        }),
      );
    const out: unknown[] = [];
    const step = async (label: string, fn: () => unknown) => {
      clock.now += 90_000;
      try {
        out.push([label, norm(await fn())]);
      } catch (e) {
        out.push([label, 'error', (e as { code?: string }).code, (e as Error).message]);
      }
    };
    const made: { key: string; id: string }[] = [];
    const create = async (input: Parameters<typeof keys.create>[0]) => {
      const r = await keys.create(input);
      made.push({ key: r.key, id: r.record.id });
      return r;
    };
    await step('create read', () => create({ name: 'reader' }));
    await step('create write', () =>
      create({ name: 'writer', scope: 'write', spaces: ['work'], expires: '10m' }),
    );
    await step('create admin', () => create({ name: 'admin', scope: 'admin', expires: '2030-01-01' }));
    await step('create bad', () => create({ name: 'x', scope: 'root' }));
    await step('verify reader', () => keys.verify(made[0].key));
    await step('verify writer', () => keys.verify(made[1].key));
    await step('list', () => keys.list());
    await step('revoke admin', () => keys.revoke(made[2].id));
    await step('verify admin', () => keys.verify(made[2].key));
    for (let i = 0; i < 6; i++) await step(`tick ${i}`, () => keys.hasActiveKeys());
    await step('verify writer late', () => keys.verify(made[1].key));
    await step('revoke missing', () => keys.revoke('key_000000000000'));
    await step('list end', () => keys.list());
    return out;
  };
  const results: unknown[][] = [];
  for (const b of BACKENDS.filter((c) => !c.skip)) results.push(await run(b.name));
  for (const r of results.slice(1)) assert.deepEqual(r, results[0]);
});
