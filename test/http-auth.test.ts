/**
 * Auth against a real server on 127.0.0.1:0 with real HTTP requests: keyless loopback use, a
 * non-loopback bind that needs keys, bearer and X-Tapedeck-Api-Key, revoked and expired keys, read
 * scope, admin-only key management, and the slowdown after repeated failures.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { startHttpServer } from '../src/interfaces/http/server.js';
import { openPg } from '../src/storage/postgres/open.js';
import { tempHome } from './support/home.js';
import { json, type ServedHome, serveHome } from './support/http.js';

let s: ServedHome;
let writeKey: string;
let readKey: string;
let adminKey: string;

before(async () => {
  s = await serveHome({ throttle: { free: 3, baseMs: 300, maxMs: 2000 } });
  writeKey = (await s.engine.keys.create({ name: 'writer', scope: 'write' })).key;
  readKey = (await s.engine.keys.create({ name: 'reader', scope: 'read' })).key;
  adminKey = (await s.engine.keys.create({ name: 'admin', scope: 'admin' })).key;
});

after(async () => {
  await s?.stop();
});

describe('keyless use', () => {
  test('a loopback client of a loopback server needs no key', async () => {
    assert.match(s.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const r = await s.req('/v1/memories', { json: { content: 'Keyless from this machine works' } });
    assert.equal(r.status, 201);
    assert.equal((await s.req('/health')).status, 200);
  });

  test('a non-loopback bind refuses to start without an active key, with a clear message', async () => {
    const h = tempHome();
    const engine = h.engine();
    try {
      await assert.rejects(
        startHttpServer(engine, { host: '0.0.0.0', port: 0, log: () => {} }),
        (e: Error) => {
          assert.match(e.message, /Binding 0\.0\.0\.0 .*needs an API key.*tapedeck keys create/s);
          return true;
        },
      );
      const revoked = await engine.keys.create({ name: 'old' });
      await engine.keys.revoke(revoked.record.id);
      await assert.rejects(
        startHttpServer(engine, { host: '0.0.0.0', port: 0, log: () => {} }),
        /no key is active/,
      );
    } finally {
      engine.close();
      h.cleanup();
    }
  });

  test('with a key, a non-loopback server serves keyed requests only, loopback clients included', async () => {
    const h = tempHome();
    const engine = h.engine();
    const key = (await engine.keys.create({ name: 'net', scope: 'read' })).key;
    const server = await startHttpServer(engine, { host: '0.0.0.0', port: 0, log: () => {} });
    try {
      assert.equal(server.requireKeys, true);
      const url = `http://127.0.0.1:${server.port}`;
      const anon = await fetch(`${url}/v1/threads`);
      assert.equal(anon.status, 401);
      assert.equal((await json(anon)).error.code, 'UNAUTHORIZED');
      assert.match(anon.headers.get('www-authenticate') ?? '', /Bearer/);
      assert.equal(
        (await fetch(`${url}/v1/threads`, { headers: { authorization: `Bearer ${key}` } })).status,
        200,
      );
      assert.equal((await fetch(`${url}/livez`)).status, 200, 'liveness needs no key');
    } finally {
      await server.close();
      engine.close();
      h.cleanup();
    }
  });
});

describe('keys', () => {
  test('accepted as Authorization: Bearer and as X-Tapedeck-Api-Key', async () => {
    assert.equal((await s.req('/v1/threads', { key: readKey })).status, 200);
    const r = await s.req('/v1/threads', { headers: { 'x-tapedeck-api-key': readKey } });
    assert.equal(r.status, 200);
  });

  test('a wrong key is 401 even from loopback (no fallback to keyless)', async () => {
    const r = await s.req('/v1/threads', { key: `tapedeck_${'A'.repeat(43)}` });
    assert.equal(r.status, 401);
    assert.equal((await json(r)).error.message, 'The API key is not valid');
  });

  test('a revoked key is refused at once, by the running server', async () => {
    const { key, record } = await s.engine.keys.create({ name: 'short-lived', scope: 'read' });
    assert.equal((await s.req('/v1/threads', { key })).status, 200);
    await s.engine.keys.revoke(record.id);
    const r = await s.req('/v1/threads', { key });
    assert.equal(r.status, 401);
    assert.equal((await json(r)).error.message, 'The API key was revoked');
  });

  test('an expired key is refused', async () => {
    const { key, record } = await s.engine.keys.create({ name: 'soon', scope: 'read', expires: '1m' });
    assert.equal((await s.req('/v1/threads', { key })).status, 200);
    const past = new Date(Date.now() - 1000).toISOString();
    expireKey(record.id, past);
    const r = await s.req('/v1/threads', { key });
    assert.equal(r.status, 401);
    assert.equal((await json(r)).error.message, 'The API key has expired');
  });

  test('read scope cannot write (403), through REST and through MCP tools', async () => {
    const r = await s.req('/v1/memories', { key: readKey, json: { content: 'a reader tries to write' } });
    assert.equal(r.status, 403);
    const body = await json(r);
    assert.equal(body.error.code, 'FORBIDDEN');
    assert.match(body.error.message, /read scope/);
    assert.equal((await s.req('/v1/memories/search?q=reader', { key: readKey })).status, 200);
    const mcp = await s.req('/mcp', {
      key: readKey,
      json: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'remember', arguments: { content: 'via mcp' } },
      },
      headers: { accept: 'application/json, text/event-stream' },
    });
    assert.equal(mcp.status, 200);
    const out = await json(mcp);
    assert.equal(out.result.isError, true);
    assert.match(out.result.content[0].text, /FORBIDDEN/);
    assert.equal(s.engine.memories.search('via mcp', {}).hits.length, 0);
  });

  test('write scope writes but cannot manage keys; admin can', async () => {
    assert.equal(
      (await s.req('/v1/memories', { key: writeKey, json: { content: 'A writer writes' } })).status,
      201,
    );
    assert.equal((await s.req('/v1/keys', { key: writeKey })).status, 403);
    assert.equal((await s.req('/v1/keys', { key: writeKey, json: { name: 'x' } })).status, 403);
    const list = await s.req('/v1/keys', { key: adminKey });
    assert.equal(list.status, 200);
    const keys = (await json(list)).keys;
    assert.ok(keys.length >= 3);
    for (const k of keys) assert.equal(k.hash, undefined, 'no digest in the listing');
    assert.ok(!JSON.stringify(keys).includes(writeKey.slice(10)), 'no secret in the listing');
    const made = await s.req('/v1/keys', {
      key: adminKey,
      json: { name: 'made over http', scope: 'read', spaces: ['team'] },
    });
    assert.equal(made.status, 201);
    const created = await json(made);
    assert.match(created.key, /^tapedeck_[A-Za-z0-9_-]{43}$/);
    assert.equal((await s.req('/v1/threads', { key: created.key })).status, 200);
    assert.equal((await s.req(`/v1/keys/${created.id}`, { method: 'DELETE', key: adminKey })).status, 200);
    assert.equal((await s.req('/v1/threads', { key: created.key })).status, 401);
  });
});

describe('slowdown', () => {
  test('repeated failures from one client lock it out with growing waits; the key is not even checked meanwhile', async () => {
    const t = await serveHome({ throttle: { free: 2, baseMs: 400, maxMs: 5000 } });
    try {
      const good = (await t.engine.keys.create({ name: 'good', scope: 'read' })).key;
      const bad = `tapedeck_${'B'.repeat(43)}`;
      assert.equal((await t.req('/v1/threads', { key: bad })).status, 401);
      assert.equal((await t.req('/v1/threads', { key: bad })).status, 401);
      assert.equal(
        (await t.req('/v1/threads', { key: bad })).status,
        401,
        'the third failure starts a lockout',
      );
      const locked = await t.req('/v1/threads', { key: good });
      assert.equal(locked.status, 429, 'even a good key waits: guesses must not be checked during a lockout');
      assert.equal((await json(locked)).error.code, 'RATE_LIMITED');
      assert.equal(locked.headers.get('retry-after'), '1');
      const owner = await t.req('/v1/threads');
      assert.equal(
        owner.status,
        200,
        'the owner token is not a guess: bad keys from loopback do not lock the owner out',
      );
      await new Promise((r) => setTimeout(r, 450));
      assert.equal(
        (await t.req('/v1/threads', { key: good })).status,
        200,
        'after the wait, a good key works',
      );
      assert.equal((await t.req('/v1/threads', { key: bad })).status, 401);
      const t0 = Date.now();
      let status = 429;
      while (status === 429 && Date.now() - t0 < 3000) {
        await new Promise((r) => setTimeout(r, 50));
        status = (await t.req('/v1/threads', { key: good })).status;
      }
      assert.ok(Date.now() - t0 >= 500, `the next lockout is longer than the first (${Date.now() - t0} ms)`);
    } finally {
      await t.stop();
    }
  });
});

/** Move a key's expiry into the past in the store, as the passing of time would. */
function expireKey(id: string, at: string): void {
  // A second connection to the same store: the server reads the key table on every request.
  if (s.engine.config.databaseUrl) {
    const { pg } = openPg(s.engine.config.databaseUrl);
    pg.run('UPDATE api_keys SET expires_at = $1 WHERE id = $2', [at, id]);
    pg.close();
    return;
  }
  const db = new Database(s.engine.config.dbPath);
  db.prepare('UPDATE api_keys SET expires_at = ? WHERE id = ?').run(at, id);
  db.close();
}
