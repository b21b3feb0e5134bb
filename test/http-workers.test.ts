/**
 * `tapedeck serve --workers 2` as real processes, on every backend: both workers answer, concurrent
 * writers (memory adds, checkpointed saved-thread appends) lose and duplicate nothing, SIGTERM
 * lets in-flight writes on every worker finish, a revoked key stops working on every worker at
 * once, a killed worker is replaced, and a crash loop ends the server with a reason.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { BACKENDS, backendHome } from './support/backends.js';
import { tapedeck } from './support/cli.js';
import type { TempHome } from './support/home.js';
import { type ServeProcess, startServe } from './support/serve.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * One request on a connection of its own (no keep-alive pool): the primary hands each new
 * connection to the next worker, so a series of these reaches every worker.
 */
/** The owner token of the server started last (every keyless request carries it, as the CLI does). */
let ownerToken = '';

function call(
  url: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
  // biome-ignore lint/suspicious/noExplicitAny: response bodies of many shapes, asserted field by field
): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = request(`${url}${path}`, {
      method,
      agent: false,
      headers: {
        ...(data
          ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(data)) }
          : {}),
        ...(ownerToken ? { authorization: `Bearer ${ownerToken}` } : {}),
        ...headers,
      },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c) => {
        text += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : null }));
    });
    req.on('error', reject);
    req.setTimeout(10_000, () => req.destroy(new Error(`${method} ${path}: no answer in 10 s`)));
    req.end(data);
  });
}

/** A POST whose body is sent in two parts, so the test decides when the request completes. */
function slowPost(url: string, path: string, body: string) {
  const req = request(`${url}${path}`, {
    method: 'POST',
    agent: false,
    headers: {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      authorization: `Bearer ${ownerToken}`,
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
  return { finish: () => req.end(body.slice(5)), response };
}

async function healthPids(url: string, n = 12, headers: Record<string, string> = {}) {
  const pids = new Map<number, { workers: number; in_flight: number }>();
  for (let i = 0; i < n; i++) {
    const r = await call(url, 'GET', '/health', undefined, headers);
    assert.equal(r.status, 200);
    const seen = pids.get(r.json.pid);
    pids.set(r.json.pid, {
      workers: r.json.workers,
      in_flight: Math.max(seen?.in_flight ?? 0, r.json.in_flight),
    });
  }
  return pids;
}

for (const b of BACKENDS) {
  describe(`tapedeck serve --workers 2 (${b.name})`, { skip: b.skip }, () => {
    let h: TempHome;
    let s: ServeProcess | undefined;
    before(() => {
      h = backendHome(b.name);
    });
    after(async () => {
      await s?.stop();
      h?.cleanup();
    });
    const serve = async (args: string[] = []) => {
      await s?.stop();
      s = await startServe(h.env, ['--workers', '2', '--refresh', '0', ...args]);
      ownerToken = s.token;
      return s;
    };

    test('one start line; both workers answer; /health names the workers and its pid', async () => {
      const p = await serve();
      const lines = p.stderr().trim().split('\n');
      assert.equal(lines.length, 1, p.stderr());
      assert.match(
        lines[0]!,
        /^tapedeck serve: listening on http:\/\/127\.0\.0\.1:\d+ \(store .+; 2 workers\)$/,
      );
      const pids = await healthPids(p.url);
      assert.equal(pids.size, 2, 'two processes answered');
      assert.ok(!pids.has(p.child.pid!), 'the primary serves no request');
      for (const v of pids.values()) assert.equal(v.workers, 2);
    });

    test('concurrent memory adds and checkpointed appends: nothing lost, nothing duplicated', async () => {
      const p = await serve();
      const adds = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          call(p.url, 'POST', '/v1/memories', { content: `Parallel fact number ${i} about workers` }),
        ),
      );
      assert.deepEqual(
        adds.map((r) => r.status),
        adds.map(() => 201),
      );
      const again = await Promise.all(
        Array.from({ length: 10 }, () =>
          call(p.url, 'POST', '/v1/memories', { content: 'Parallel fact number 3 about workers' }),
        ),
      );
      assert.ok(again.every((r) => r.status === 200 && r.json.deduplicated));

      const thread = `workers-${b.name}`;
      const made = await call(p.url, 'POST', '/v1/saved-threads', {
        id: thread,
        source: 'test',
        messages: [{ role: 'user', content: 'start' }],
      });
      assert.equal(made.status, 201);
      const clients = 8;
      const each = 5;
      let conflicts = 0;
      await Promise.all(
        Array.from({ length: clients }, async (_, c) => {
          let count = 1;
          for (let m = 0; m < each; m++) {
            const content = `client ${c} message ${m}`;
            for (;;) {
              const r = await call(p.url, 'POST', `/v1/saved-threads/${thread}/messages`, {
                messages: [{ role: 'user', content }],
                expected_message_count: count,
                idempotency_key: `${thread}-${c}-${m}`,
              });
              if (r.status === 200) {
                count = r.json.total_messages;
                break;
              }
              assert.equal(r.status, 409, JSON.stringify(r.json));
              assert.equal(r.json.error.details.reason, 'checkpoint_conflict');
              count = r.json.error.details.actual_message_count;
              conflicts++;
            }
          }
        }),
      );
      await p.stop();
      assert.equal(await p.exited, 0);

      const engine = h.engine();
      try {
        const listed = engine.memories.list({ limit: 100 }).memories.map((m) => m.content);
        assert.equal(listed.length, 40);
        assert.equal(new Set(listed).size, 40);
        const saved = engine.savedThreads.get(thread, { limit: 1000 });
        const texts = saved.messages.map((m: { content: string }) => m.content);
        assert.equal(texts.length, 1 + clients * each, `conflicts retried: ${conflicts}`);
        assert.equal(new Set(texts).size, texts.length, 'no message twice');
        for (let c = 0; c < clients; c++) {
          const mine = texts.filter((t: string) => t.startsWith(`client ${c} `));
          assert.deepEqual(
            mine,
            Array.from({ length: each }, (_, m) => `client ${c} message ${m}`),
            'each client’s messages in its order',
          );
        }
      } finally {
        engine.close();
      }
    });

    test('SIGTERM: in-flight writes on every worker complete, then exit 0 with one stop line', async () => {
      const p = await serve(['--log-requests']);
      const writes = Array.from({ length: 4 }, (_, i) =>
        slowPost(p.url, '/v1/memories', JSON.stringify({ content: `Quokkastop write ${i}` })),
      );
      // Wait until both workers are handling a write (/health counts itself too).
      for (let i = 0; i < 100; i++) {
        const pids = await healthPids(p.url, 4);
        if (pids.size === 2 && [...pids.values()].every((v) => v.in_flight >= 2)) break;
        assert.ok(i < 99, 'both workers have a write in flight');
        await sleep(20);
      }
      p.child.kill('SIGTERM');
      await sleep(300);
      await assert.rejects(call(p.url, 'GET', '/livez'), 'new connections are refused');
      for (const w of writes) w.finish();
      for (const w of writes) assert.equal((await w.response).status, 201);
      assert.equal(await p.exited, 0);
      assert.equal(p.stdout(), '', 'stdout stays empty');
      assert.equal(p.stderr().match(/stopped \(SIGTERM\)/g)?.length, 1, p.stderr());
      assert.match(p.stderr(), /tapedeck serve \[worker [12]\]: POST \/v1\/memories 201 /);
      const engine = h.engine();
      try {
        const hits = engine.memories.search('quokkastop', { limit: 10 }).hits;
        assert.equal(hits.length, 4);
      } finally {
        engine.close();
      }
    });

    test('a revoked key stops working on every worker at once', async () => {
      const made = tapedeck(['keys', 'create', '--name', 'w', '--scope', 'write', '--json'], h.env).json();
      const p = await serve();
      const auth = { authorization: `Bearer ${made.key}` };
      assert.equal((await healthPids(p.url, 6, auth)).size, 2);
      assert.equal(tapedeck(['keys', 'revoke', made.id], h.env).status, 0);
      const after = await Promise.all(
        Array.from({ length: 8 }, () => call(p.url, 'GET', '/health', undefined, auth)),
      );
      // Every answer refuses the key: 401, or 429 once a worker's failed-key throttle (5 free failures
      // per worker) locks the client out — how the primary spreads connections decides which.
      const statuses = after.map((r) => r.status);
      assert.ok(
        statuses.every((s) => s === 401 || s === 429),
        `refused everywhere: ${statuses}`,
      );
      assert.ok(statuses.filter((s) => s === 401).length >= 5, `401s before any lockout: ${statuses}`);
    });

    test('a killed worker is replaced; the server keeps answering', async () => {
      const p = await serve();
      const before = [...(await healthPids(p.url, 6)).keys()];
      assert.equal(before.length, 2);
      process.kill(before[0]!, 'SIGKILL');
      // A connection the primary hands over in the instant before it sees the death is lost with
      // the worker (node:cluster round-robin; documented): ask once the primary has noticed.
      for (let i = 0; i < 100 && !p.stderr().includes(`(pid ${before[0]}) exited`); i++) await sleep(20);
      let now: number[] = [];
      for (let i = 0; i < 100; i++) {
        now = [...(await healthPids(p.url, 4)).keys()];
        if (now.length === 2 && !now.includes(before[0]!)) break;
        await sleep(50);
      }
      assert.equal(now.length, 2);
      assert.ok(now.includes(before[1]!) && !now.includes(before[0]!), `${before} → ${now}`);
      assert.match(
        p.stderr(),
        new RegExp(`worker \\d \\(pid ${before[0]}\\) exited with signal SIGKILL; restarting in \\d+ ms`),
      );
    });
  });
}

describe('tapedeck serve --workers: a crash loop ends the server', () => {
  test('five worker deaths in a minute: exit 1 with the reason', async () => {
    const h = backendHome('sqlite');
    try {
      const p = await startServe(h.env, ['--workers', '2', '--refresh', '0']);
      ownerToken = p.token;
      const killed = new Set<number>();
      for (let i = 0; i < 100 && p.child.exitCode === null; i++) {
        const r = await call(p.url, 'GET', '/health').catch(() => undefined);
        if (r && !killed.has(r.json.pid)) {
          killed.add(r.json.pid);
          process.kill(r.json.pid, 'SIGKILL');
          for (let j = 0; j < 100 && !p.stderr().includes(`(pid ${r.json.pid}) exited`); j++) await sleep(20);
        }
        await sleep(200);
      }
      const code = await Promise.race([p.exited, sleep(20_000).then(() => 'hung')]);
      assert.equal(code, 1, p.stderr());
      assert.match(p.stderr(), /stopped: workers crashed 5 times in 60 s .*giving up/);
    } finally {
      h.cleanup();
    }
  });
});
