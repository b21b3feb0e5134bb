/**
 * Hooks against a Tapedeck server (`tapedeck serve` in a child process with its own home, so the
 * transcript is not on its side and saves are pushed): server down → the session is indexed
 * locally meanwhile and queued → `tapedeck queue flush` once the server is up → saved there, and
 * saving again adds nothing. A server that accepts connections and never answers costs the hook
 * at most its budget.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { readLocalToken } from '../src/app/local-token.js';
import { BIN, tapedeck } from './support/cli.js';
import { hookWorld, readLog, runHook, SESSIONS, waitIdle } from './support/hooks.js';

const THREAD = `claude-code:${SESSIONS['claude-code'].id}`;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

function serve(port: number, root: string): Promise<ChildProcess> {
  const env = {
    HOME: join(root, 'server home'),
    TAPEDECK_HOME: join(root, 'server tapedeck'),
    PATH: process.env.PATH ?? '',
  };
  mkdirSync(env.HOME, { recursive: true });
  const child = spawn(process.execPath, [BIN, 'serve', '--port', String(port)], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let err = '';
    const timer = setTimeout(() => reject(new Error(`tapedeck serve did not start: ${err}`)), 20_000);
    child.stderr!.on('data', (d) => {
      err += d;
      if (/listening on/.test(err)) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.on('exit', (code) => reject(new Error(`tapedeck serve exited ${code}: ${err}`)));
  });
}

/** The owner token of the server started last (its home is `<root>/server tapedeck`). */
let serverToken = '';

async function messagesOnServer(url: string): Promise<number> {
  const r = await fetch(`${url}/v1/saved-threads/${encodeURIComponent(THREAD)}?limit=10000`, {
    headers: { authorization: `Bearer ${serverToken}` },
  });
  assert.equal(r.status, 200, await r.clone().text());
  const body = (await r.json()) as { messages: unknown[] };
  return body.messages.length;
}

describe('server tier', () => {
  let server: ChildProcess | undefined;
  const stops: (() => void)[] = [];
  after(async () => {
    server?.kill('SIGTERM');
    for (const s of stops) s();
  });

  it('server down → queued → flushed once it is up → saved once, re-saves add nothing', async (t) => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const w = hookWorld({ TAPEDECK_API_URL: url });
    t.after(() => w.cleanup());
    w.place('claude-code');

    const r = await runHook('claude-code', 'Stop', w.payload('claude-code', 'Stop'), w.env);
    assert.deepEqual(r.json(), {});
    await waitIdle(w.tapedeckHome);
    let st = tapedeck(['status', '--json'], w.env).json();
    assert.equal(st.server.answering, false);
    assert.equal(st.queue.waiting, 1);
    assert.equal(st.queue.retrying, 1);
    assert.ok(st.server.circuit.open_until, 'circuit open');
    assert.equal(st.ok, false);
    assert.match(readLog(w.tapedeckHome), /indexed in the local store meanwhile/);
    const local = tapedeck(['search', 'OFFSET', '--json', '--no-index', '--local'], w.env).json();
    assert.ok(
      local.hits.some((h: { thread: string }) => h.thread === THREAD),
      'searchable locally meanwhile',
    );

    // session start while the server is down: local context, a warning for the user, no waiting
    const start = await runHook(
      'claude-code',
      'SessionStart',
      w.payload('claude-code', 'SessionStart'),
      w.env,
    );
    assert.equal(start.status, 0);
    assert.match(start.json().systemMessage, /1 session waiting to be saved/);

    let srv: ChildProcess;
    try {
      srv = await serve(port, w.root);
    } catch (e) {
      return t.skip(`tapedeck serve is not usable here: ${(e as Error).message}`);
    }
    server = srv;
    // The hooks stand for the server's owner with another home: they hold its owner token.
    const serverHome = join(w.root, 'server tapedeck');
    serverToken = readLocalToken(serverHome) ?? '';
    copyFileSync(join(serverHome, 'local-token'), join(w.tapedeckHome, 'local-token'));
    const flushed = tapedeck(['queue', 'flush', '--json'], w.env);
    assert.equal(flushed.status, 0, flushed.stderr);
    const f = flushed.json();
    assert.deepEqual(
      f.saved.map((s: { thread: string; target: string; how: string }) => [s.thread, s.target, s.how]),
      [[THREAD, 'server', 'push']],
    );
    assert.equal(f.waiting, 0);
    const n = await messagesOnServer(url);
    assert.ok(n > 5, `${n} messages on the server`);

    // saved again (late retry, resumed session): nothing new is added, also without the push memo
    await runHook('claude-code', 'SessionEnd', w.payload('claude-code', 'SessionEnd'), w.env);
    await waitIdle(w.tapedeckHome);
    assert.equal(await messagesOnServer(url), n);
    rmSync(join(w.tapedeckHome, 'hooks', 'pushed.json'), { force: true });
    await runHook('claude-code', 'Stop', w.payload('claude-code', 'Stop'), w.env);
    await waitIdle(w.tapedeckHome);
    assert.equal(await messagesOnServer(url), n);

    st = tapedeck(['status', '--json', '--session', THREAD], w.env).json();
    assert.equal(st.server.answering, true);
    assert.equal(st.queue.waiting, 0);
    assert.equal(st.session.saved, true);
    assert.equal(st.session.last_save.target, 'server');

    const up = await runHook('claude-code', 'SessionStart', w.payload('claude-code', 'SessionStart'), w.env);
    assert.equal(up.status, 0);
    assert.match(readLog(w.tapedeckHome), /context from server/);
  });

  it('a server that never answers costs a session start at most its budget, then is skipped', async (t) => {
    const sockets: import('node:net').Socket[] = [];
    const hung: Server = createServer((s) => void sockets.push(s));
    await new Promise<void>((r) => hung.listen(0, '127.0.0.1', r));
    stops.push(() => {
      for (const s of sockets) s.destroy();
      hung.close();
    });
    const { port } = hung.address() as { port: number };
    // a budget that leaves room for the local store after the server's 1.5 s timeout
    const w = hookWorld({
      TAPEDECK_API_URL: `http://127.0.0.1:${port}`,
      TAPEDECK_HOOK_NO_WORKER: '1',
      TAPEDECK_HOOK_BUDGET_MS: '8000',
    });
    t.after(() => w.cleanup());
    // --local: the hook's fallback store (with TAPEDECK_API_URL set the CLI would go to the server).
    cli(
      ['memory', 'add', '--local', '--project', w.project, 'Deploys go through the staging gate first'],
      w.env,
    );
    const first = await runHook(
      'claude-code',
      'SessionStart',
      w.payload('claude-code', 'SessionStart'),
      w.env,
    );
    assert.equal(first.status, 0);
    assert.match(first.json().hookSpecificOutput.additionalContext, /staging gate/, 'local context instead');
    assert.ok(first.ms < 8000 + 2000, `${first.ms} ms`);
    assert.match(readLog(w.tapedeckHome), /no answer in \d+ ms/);
    const second = await runHook(
      'claude-code',
      'SessionStart',
      w.payload('claude-code', 'SessionStart'),
      w.env,
    );
    assert.match(second.json().systemMessage, /unreachable/);
    assert.equal(sockets.length, 1, 'the open circuit skipped the server the second time');
  });
});

function cli(args: string[], env: Record<string, string>) {
  const r = tapedeck(args, env);
  assert.equal(r.status, 0, r.stderr);
  return r;
}
