/**
 * Only the owner gets in (issue 11 §3), against a real keyless server on 127.0.0.1: a request
 * without the owner token is 401 — also from another Unix user (`nobody`, a real child process
 * with its own uid) — the token file is owner-only, the web page's static paths stay public, and
 * no request, whoever sends it, can make the server write or read folders (skills install,
 * import, export over RPC). `PUT /v1/wiki/pages/…?space=X` writes into X.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { clientBearer, ensureLocalToken, localTokenPath, readLocalToken } from '../src/app/local-token.js';
import { nobodySkipReason } from './support/cli.js';
import { json, type ServedHome, serveHome } from './support/http.js';

let s: ServedHome;

before(async () => {
  s = await serveHome();
  s.engine.skills.add({ name: 'deploy-check', description: 'Check a deploy', body: '# Deploy\nRun it.' });
});

after(async () => {
  await s?.stop();
});

/** A request made by another Unix user: `node -e` as uid/gid `nobody`; resolves with what it saw. */
function asNobody(
  url: string,
  tokenPath: string,
): Promise<{ code: number | null; out: string; err: string }> {
  const script = `
    const fs = require('node:fs');
    let read = 'read';
    try { fs.readFileSync(${JSON.stringify(tokenPath)}, 'utf8'); } catch (e) { read = e.code; }
    fetch(${JSON.stringify(`${url}/v1/threads`)}).then(async (r) => {
      const keys = await fetch(${JSON.stringify(`${url}/v1/rpc`)}, {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ service: 'keys', method: 'create', args: [{ name: 'mine', scope: 'admin' }] }),
      });
      console.log(JSON.stringify({ uid: process.getuid(), token: read, threads: r.status, keys: keys.status }));
    }, (e) => { console.error(e.message); process.exit(3); });`;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-e', script], {
      uid: 65534,
      gid: 65534,
      cwd: '/',
      env: { PATH: process.env.PATH ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

describe('the owner token', () => {
  test('a keyless request without the token is 401 and says where the token is; with it, 200', async () => {
    const none = await s.req('/v1/threads', { anonymous: true });
    assert.equal(none.status, 401);
    const body = await json(none);
    assert.equal(body.error.code, 'UNAUTHORIZED');
    assert.match(body.error.message, /local-token/);
    assert.equal((await s.req('/v1/memories', { anonymous: true, json: { content: 'x' } })).status, 401);
    assert.equal((await s.req('/mcp', { anonymous: true, json: {} })).status, 401);
    assert.equal((await s.req('/v1/threads')).status, 200, 'the owner token (what the CLI sends) gets in');
    const wrong = await s.req('/v1/threads', { key: `tdl_${'x'.repeat(43)}` });
    assert.equal(wrong.status, 401);
    assert.match((await json(wrong)).error.message, /owner token is not this server/);
    assert.equal((await s.req('/v1/threads', { key: 'guess' })).status, 401);
  });

  test('the token is random, 0600, created once and read back the same', () => {
    const path = localTokenPath(s.h.tapedeckHome);
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.match(s.token, /^tdl_[A-Za-z0-9_-]{43}$/);
    assert.equal(ensureLocalToken(s.h.tapedeckHome), s.token, 'ensure keeps an existing token');
    const other = mkdtempSync(join(tmpdir(), 'tapedeck-token-'));
    try {
      assert.equal(readLocalToken(other), undefined);
      const made = ensureLocalToken(join(other, 'home'));
      assert.notEqual(made, s.token, 'each home has its own');
      assert.equal(statSync(join(other, 'home')).mode & 0o777, 0o700);
      writeFileSync(localTokenPath(join(other, 'home')), 'damaged\n');
      const again = ensureLocalToken(join(other, 'home'));
      assert.match(again, /^tdl_/, 'a damaged file is replaced');
      assert.equal(readLocalToken(join(other, 'home')), again);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  test('clients send the token only to a server on this machine, and a configured key first', () => {
    const home = s.h.tapedeckHome;
    assert.equal(clientBearer(s.url, undefined, home), s.token);
    assert.equal(clientBearer('http://localhost:7420', undefined, home), s.token);
    assert.equal(clientBearer('http://[::1]:7420', undefined, home), s.token);
    assert.equal(
      clientBearer('https://tapedeck.example.com', undefined, home),
      undefined,
      'never over the network',
    );
    assert.equal(clientBearer('http://127.0.0.1.example.com', undefined, home), undefined);
    assert.equal(clientBearer(s.url, 'tapedeck_key', home), 'tapedeck_key');
  });

  test('API keys keep working beside it', async () => {
    const key = (await s.engine.keys.create({ name: 'reader', scope: 'read' })).key;
    assert.equal((await s.req('/v1/threads', { key })).status, 200);
    assert.equal(
      (await s.req('/v1/threads', { headers: { 'x-tapedeck-api-key': key }, anonymous: true })).status,
      200,
    );
  });

  test('static page paths need no token; data routes all do', async () => {
    for (const p of ['/', '/assets/app.js', '/favicon.ico', '/livez', '/openapi.json'])
      assert.notEqual((await s.req(p, { anonymous: true })).status, 401, p);
    for (const p of ['/health', '/v1/threads', '/v1/memories', '/v1/wiki', '/v1/keys', '/context'])
      assert.equal((await s.req(p, { anonymous: true })).status, 401, p);
  });

  test('another Unix user gets 401 and cannot read the token file', async (t) => {
    // Root to switch users, and a node (and checkout) that nobody may run: never fail for where they sit.
    const why = nobodySkipReason();
    if (why) return t.skip(why);
    const r = await asNobody(s.url, localTokenPath(s.h.tapedeckHome));
    assert.equal(r.code, 0, r.err);
    const seen = JSON.parse(r.out);
    assert.equal(seen.uid, 65534);
    assert.equal(seen.token, 'EACCES', 'the token file is not readable by another user');
    assert.equal(seen.threads, 401, 'no threads for another user');
    assert.equal(seen.keys, 401, 'no admin key for another user');
    assert.equal((await s.engine.keys.list()).filter((k) => k.name === 'mine').length, 0);
  });
});

describe('nothing over HTTP writes or reads server folders', () => {
  const rpc = (service: string, method: string, args: unknown[], key?: string) =>
    s.req('/v1/rpc', { key, json: { service, method, args } });

  test('skills install, import and export are refused to the owner token and to admin keys', async () => {
    const target = mkdtempSync(join(tmpdir(), 'tapedeck-install-'));
    const admin = (await s.engine.keys.create({ name: 'admin', scope: 'admin' })).key;
    try {
      for (const key of [undefined, admin]) {
        const install = await rpc(
          'skills',
          'install',
          ['deploy-check', { workspace: target, force: true }],
          key,
        );
        assert.equal(install.status, 403, await install.clone().text());
        assert.match((await json(install)).error.message, /names files on the server/);
        assert.equal((await rpc('skills', 'exportDir', [join(target, 'out')], key)).status, 403);
        assert.equal((await rpc('skills', 'importDir', [target], key)).status, 403);
      }
      assert.equal(existsSync(join(target, '.agents')), false, 'no SKILL.md was written');
      assert.equal(existsSync(join(target, 'out')), false, 'nothing was exported');
      // The rest of skills stays reachable to the owner.
      const list = await rpc('skills', 'list', []);
      assert.equal(list.status, 200);
      assert.ok((await json(list)).result.some((k: { name: string }) => k.name === 'deploy-check'));
    } finally {
      rmSync(target, { recursive: true, force: true });
    }
  });

  test('export and import are not callable over RPC', async () => {
    const r = await rpc('portability' as string, 'export', ['/tmp/x']);
    assert.equal(r.status, 400);
  });
});

describe('PUT /v1/wiki/pages/{path}?space=X', () => {
  test('writes into the space the query names; a body naming another one is refused', async () => {
    const put = await s.req('/v1/wiki/pages/runbooks/deploy.md?space=ops', {
      method: 'PUT',
      json: { content: '# Deploy\nRoll out with care.' },
    });
    assert.equal(put.status, 201, await put.clone().text());
    assert.equal(
      (await s.engine.wiki.read('runbooks/deploy.md', { space: 'ops' })).content.includes('care'),
      true,
    );
    const elsewhere = await s.req('/v1/wiki/pages/runbooks/deploy.md', {});
    assert.equal(elsewhere.status, 404, 'not in the default space');
    const both = await s.req('/v1/wiki/pages/runbooks/deploy.md?space=ops', {
      method: 'PUT',
      json: { content: '# Deploy\nOther.', space: 'dev' },
    });
    assert.equal(both.status, 400);
  });
});
