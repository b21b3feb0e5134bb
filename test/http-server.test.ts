/**
 * The server as a process sees it: body limits and malformed JSON over a real socket, graceful
 * shutdown (an in-flight write completes, new connections are refused, the wait is bounded),
 * and the `tapedeck serve` / `tapedeck keys` commands as real child processes (signals, logs).
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { BIN, tapedeck } from './support/cli.js';
import { type TempHome, tempHome } from './support/home.js';
import { json, type ServedHome, serveHome } from './support/http.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A POST whose body is sent in two parts, so the test decides when the request completes. */
function slowPost(url: string, path: string, body: string, headers: Record<string, string> = {}) {
  const req = request(`${url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      ...headers,
    },
  });
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let data = '';
      res.on('data', (c) => {
        data += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data }));
    });
    req.on('error', reject);
  });
  req.write(body.slice(0, 5));
  return { finish: () => req.end(body.slice(5)), response, abort: () => req.destroy() };
}

describe('over a real socket', () => {
  let s: ServedHome;
  before(async () => {
    s = await serveHome({ bodyLimit: 32 * 1024, threadBodyLimit: 128 * 1024 });
  });
  after(async () => {
    await s?.stop();
  });

  test('malformed JSON is 400 and the server keeps serving', async () => {
    const r = await fetch(`${s.url}/v1/memories`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${s.token}` },
      body: '{"content": ',
    });
    assert.equal(r.status, 400);
    assert.equal((await json(r)).error.code, 'INVALID_INPUT');
    assert.equal((await s.req('/livez')).status, 200);
  });

  test('bodies over the limit are 413 (declared length and chunked), thread bodies have their own', async () => {
    const big = await s.req('/v1/memories', { json: { content: 'x'.repeat(40 * 1024) } });
    assert.equal(big.status, 413);
    assert.equal((await json(big)).error.code, 'PAYLOAD_TOO_LARGE');
    // The unread rest of the body ends the connection; a reused one would fail the next request.
    assert.equal(big.headers.get('connection'), 'close');
    const chunked = await fetch(`${s.url}/v1/memories`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${s.token}` },
      body: new ReadableStream({
        start(c) {
          for (let i = 0; i < 8; i++) c.enqueue(new TextEncoder().encode('y'.repeat(8 * 1024)));
          c.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    assert.equal(chunked.status, 413);
    const thread = await s.req('/v1/saved-threads', {
      json: { id: 'mid', messages: [{ role: 'user', content: 'm '.repeat(30 * 1024) }] },
    });
    assert.equal(thread.status, 201);
    const mcp = await s.req('/mcp', {
      json: { jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'p'.repeat(200 * 1024) } },
      headers: { accept: 'application/json, text/event-stream' },
    });
    assert.equal(mcp.status, 413);
    assert.equal(mcp.headers.get('connection'), 'close');
    assert.equal((await s.req('/livez')).status, 200);
  });

  test('MCP GET and DELETE are 405 (stateless: no stream, no session)', async () => {
    assert.equal((await s.req('/mcp', { headers: { accept: 'text/event-stream' } })).status, 405);
    assert.equal((await s.req('/mcp', { method: 'DELETE' })).status, 405);
  });
});

describe('graceful shutdown', () => {
  test('an in-flight write completes, new connections are refused, then the server is down', async () => {
    const s = await serveHome();
    try {
      const write = slowPost(
        s.url,
        '/v1/memories',
        JSON.stringify({ content: 'Written while the server stops' }),
        { authorization: `Bearer ${s.token}` },
      );
      for (let i = 0; i < 100 && s.server.app.inFlight() === 0; i++) await sleep(20);
      assert.equal(s.server.app.inFlight(), 1, 'the write is in flight');
      const closing = s.server.close();
      await sleep(100);
      await assert.rejects(fetch(`${s.url}/livez`), 'no new connections once closing');
      write.finish();
      const r = await write.response;
      assert.equal(r.status, 201, r.body);
      assert.deepEqual(await closing, { drained: true });
      const m = s.engine.memories.search('written while the server stops', {}).hits;
      assert.equal(m.length, 1, 'the write is in the store');
    } finally {
      await s.stop();
    }
  });

  test('the wait is bounded: a request that never finishes is cut', async () => {
    const s = await serveHome({ shutdownTimeoutMs: 300 });
    try {
      const stuck = slowPost(s.url, '/v1/memories', JSON.stringify({ content: 'never finished' }), {
        authorization: `Bearer ${s.token}`,
      });
      stuck.response.catch(() => {});
      await sleep(100);
      const t0 = Date.now();
      assert.deepEqual(await s.server.close(), { drained: false });
      assert.ok(Date.now() - t0 < 2000);
    } finally {
      await s.stop();
    }
  });
});

describe('tapedeck serve and tapedeck keys (child processes)', () => {
  let h: TempHome;
  before(() => {
    h = tempHome();
  });
  after(() => {
    h?.cleanup();
  });

  /** Start `tapedeck serve`, resolve with its URL once it logs that it listens. */
  function serve(
    args: string[],
  ): Promise<{ child: ChildProcess; url: string; stderr: () => string; stdout: () => string }> {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], { env: h.env });
    let err = '';
    let out = '';
    child.stdout?.on('data', (d) => {
      out += d;
    });
    return new Promise((resolve, reject) => {
      child.stderr?.on('data', (d) => {
        err += d;
        const m = /listening on (http:\/\/\S+)/.exec(err);
        if (m) resolve({ child, url: m[1], stderr: () => err, stdout: () => out });
      });
      child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
    });
  }
  const exited = (child: ChildProcess) =>
    new Promise<number | null>((r) => child.on('exit', (code) => r(code)));

  test('keys create prints the key once; list and revoke never show it', () => {
    const made = tapedeck(
      [
        'keys',
        'create',
        '--name',
        'ci',
        '--space',
        'team-a',
        '--space',
        'team-b',
        '--scope',
        'write',
        '--json',
      ],
      h.env,
    );
    assert.equal(made.status, 0, made.stderr);
    const k = made.json();
    assert.match(k.key, /^tapedeck_[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(k.spaces, ['team-a', 'team-b']);
    assert.equal(k.scope, 'write');
    const plain = tapedeck(['keys', 'create', '--name', 'laptop'], h.env);
    assert.match(plain.stdout, /^tapedeck_[A-Za-z0-9_-]{43}\n$/, 'stdout holds only the key');
    assert.match(plain.stderr, /only time the key is shown/);
    const list = tapedeck(['keys', 'list', '--json'], h.env);
    assert.ok(!list.stdout.includes(k.key));
    assert.equal(list.json().keys.length, 2);
    const rev = tapedeck(['keys', 'revoke', k.id, '--json'], h.env);
    assert.equal(rev.json().status, 'revoked');
    assert.equal(tapedeck(['keys', 'revoke', 'key_nope'], h.env).status, 1);
    assert.equal(tapedeck(['keys', 'create', '--name', 'x', '--scope', 'root'], h.env).status, 2);
  });

  test('serve refuses a non-loopback host without an active key (exit 2, clear message)', () => {
    const other = tempHome();
    try {
      const r = tapedeck(['serve', '--host', '0.0.0.0', '--port', '0'], other.env);
      assert.equal(r.status, 2);
      assert.match(r.stderr, /needs an API key.*tapedeck keys create/s);
    } finally {
      other.cleanup();
    }
  });

  test('serve: one line on start, no keys in logs, SIGTERM lets an in-flight write finish', async () => {
    const key = tapedeck(['keys', 'create', '--name', 'logs', '--scope', 'write'], h.env).stdout.trim();
    const s = await serve(['--log-requests', '--refresh', '0']);
    const startLines = s.stderr().trim().split('\n');
    assert.equal(startLines.length, 1, s.stderr());
    assert.match(startLines[0], /^tapedeck serve: listening on http:\/\/127\.0\.0\.1:\d+ /);
    const ok = await fetch(`${s.url}/v1/threads`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(ok.status, 200);
    const write = slowPost(s.url, '/v1/memories', JSON.stringify({ content: 'Saved across SIGTERM' }), {
      authorization: `Bearer ${key}`,
    });
    // Wait until the server is handling it (/health counts itself too).
    for (let i = 0; i < 100; i++) {
      const health = await json(
        await fetch(`${s.url}/health`, { headers: { authorization: `Bearer ${key}` } }),
      );
      if (health.in_flight >= 2) break;
      await sleep(20);
    }
    const done = exited(s.child);
    s.child.kill('SIGTERM');
    await sleep(200);
    write.finish();
    const r = await write.response;
    assert.equal(r.status, 201, r.body);
    assert.equal(await done, 0);
    assert.equal(s.stdout(), '', 'stdout stays empty');
    assert.match(s.stderr(), /stopped \(SIGTERM\)/);
    assert.ok(!s.stderr().includes(key), 'the key is never logged');
    assert.doesNotMatch(s.stderr(), /Bearer|authorization/i);
    assert.match(s.stderr(), /POST \/v1\/memories 201 [\d.]+ms key:key_/);
    const check = tapedeck(['memory', 'search', 'saved across sigterm', '--json'], h.env);
    assert.equal(check.json().hits.length, 1);
  });
});
