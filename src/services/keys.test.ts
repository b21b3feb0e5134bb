import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createSqliteKeyStore } from '../storage/sqlite/key-store.js';
import { openDatabase } from '../storage/sqlite/open.js';
import { createKeyService, hashKey, parseExpiry } from './keys.js';

function lab() {
  const dir = mkdtempSync(join(tmpdir(), 'tapedeck-keys-'));
  const db = openDatabase(join(dir, 'tapedeck.db'));
  const clock = { now: Date.parse('2026-06-01T12:00:00Z') };
  const keys = createKeyService({ store: createSqliteKeyStore(db), now: () => clock.now });
  const done = () => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { db, keys, clock, done };
}

test('a key is tapedeck_ + 32 random bytes; only its SHA-256 is stored', () => {
  const { db, keys, done } = lab();
  try {
    const { key, record } = keys.create({ name: 'ci', scope: 'write', spaces: ['work', 'work'] });
    assert.match(key, /^tapedeck_[A-Za-z0-9_-]{43}$/);
    assert.equal(Buffer.from(key.slice('tapedeck_'.length), 'base64url').length, 32);
    assert.deepEqual(record.spaces, ['work']);
    assert.equal(record.prefix, key.slice(0, 'tapedeck_'.length + 4));
    const row = db.prepare('SELECT * FROM api_keys').get() as Record<string, unknown>;
    assert.ok(Buffer.from(row.hash as Buffer).equals(Buffer.from(hashKey(key))));
    assert.ok(!JSON.stringify(row).includes(key.slice('tapedeck_'.length + 4)), 'the secret is not stored');
    assert.notEqual(keys.create({ name: 'other' }).key, key);
  } finally {
    done();
  }
});

test('verify: good, malformed, unknown, revoked, expired; last use recorded', () => {
  const { keys, clock, done } = lab();
  try {
    const { key, record } = keys.create({ name: 'a', expires: '1h' });
    const ok = keys.verify(key);
    assert.ok(ok.ok && ok.key.id === record.id && ok.key.scope === 'read');
    assert.equal(keys.list()[0].last_used_at, '2026-06-01T12:00:00.000Z');
    assert.deepEqual(keys.verify('Bearer x'), { ok: false, reason: 'malformed' });
    assert.deepEqual(keys.verify(`tapedeck_${'Q'.repeat(43)}`), { ok: false, reason: 'unknown' });
    clock.now += 2 * 3_600_000;
    assert.deepEqual(keys.verify(key), { ok: false, reason: 'expired' });
    assert.equal(keys.hasActiveKeys(), false);
    const b = keys.create({ name: 'b' });
    assert.equal(keys.hasActiveKeys(), true);
    keys.revoke(b.record.id);
    assert.deepEqual(keys.verify(b.key), { ok: false, reason: 'revoked' });
    assert.equal(keys.revoke(b.record.id).status, 'revoked', 'revoking twice is fine');
    assert.throws(() => keys.revoke('key_missing'), /No key/);
  } finally {
    done();
  }
});

test('bad input is refused before anything is stored', () => {
  const { keys, done } = lab();
  try {
    assert.throws(() => keys.create({ name: '' }), /needs a name/);
    assert.throws(() => keys.create({ name: 'x', scope: 'root' }), /Unknown scope/);
    assert.throws(() => keys.create({ name: 'x', spaces: ['Not A Space'] }), /Invalid space/);
    assert.throws(() => keys.create({ name: 'x', expires: 'tomorrowish' }), /not a span/);
    assert.equal(keys.list().length, 0);
  } finally {
    done();
  }
});

test('expiry spans and dates', () => {
  const now = Date.parse('2026-06-01T00:00:00Z');
  assert.equal(parseExpiry('30d', now), '2026-07-01T00:00:00.000Z');
  assert.equal(parseExpiry('12h', now), '2026-06-01T12:00:00.000Z');
  assert.equal(parseExpiry('2027-01-01', now), '2027-01-01T00:00:00.000Z');
  assert.equal(parseExpiry(undefined, now), null);
  assert.equal(parseExpiry('never', now), null);
  assert.throws(() => parseExpiry('2020-01-01', now), /in the past/);
});
