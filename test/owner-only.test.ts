/**
 * Every file and folder under the home is owner-only (issue 11 §3): created so from the start by
 * a realistic day (index, a memory, hooks that log and queue with no server, `tapedeck serve`
 * creating the owner token), and tightened when an existing home made with open modes is opened.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';
import { tapedeck } from './support/cli.js';
import { hookWorld, runHook, waitIdle } from './support/hooks.js';
import { startServe } from './support/serve.js';

/** Every path under `dir` (itself included) whose mode lets anyone but the owner in. */
function openToOthers(dir: string): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    const st = statSync(p);
    if ((st.mode & 0o077) !== 0) out.push(`${relative(dir, p) || '.'} ${(st.mode & 0o777).toString(8)}`);
    if (st.isDirectory()) for (const n of readdirSync(p)) walk(join(p, n));
  };
  walk(dir);
  return out;
}

/** Every path under `dir`, to show that the check saw something. */
function count(dir: string): { files: number; dirs: number } {
  const c = { files: 0, dirs: 0 };
  const walk = (p: string) => {
    if (statSync(p).isDirectory()) {
      c.dirs++;
      for (const n of readdirSync(p)) walk(join(p, n));
    } else c.files++;
  };
  walk(dir);
  return c;
}

describe('owner-only files', () => {
  test('a new home is created owner-only by the CLI, the hooks and the server', async (t) => {
    // A server that is not there: the hooks log, index locally and queue.
    const w = hookWorld({ TAPEDECK_API_URL: 'http://127.0.0.1:9' });
    t.after(() => w.cleanup());
    w.place('claude-code');
    const local = { ...w.env };
    delete (local as Record<string, string>).TAPEDECK_API_URL;
    assert.equal(tapedeck(['index', '--json'], local).status, 0);
    assert.equal(tapedeck(['memory', 'add', 'The staging database is db-stage-2'], local).status, 0);
    await runHook('claude-code', 'Stop', w.payload('claude-code', 'Stop'), w.env);
    await waitIdle(w.tapedeckHome);
    const s = await startServe(local);
    await s.stop();
    const seen = count(w.tapedeckHome);
    assert.ok(seen.files >= 5 && seen.dirs >= 3, `a realistic home: ${JSON.stringify(seen)}`);
    for (const f of ['tapedeck.db', 'local-token', 'hooks.log', 'queue'])
      assert.ok(readdirSync(w.tapedeckHome).includes(f), `${f} is there`);
    assert.deepEqual(openToOthers(w.tapedeckHome), []);
  });

  test('an existing home with open modes is tightened when opened', async (t) => {
    const w = hookWorld();
    t.after(() => w.cleanup());
    assert.equal(tapedeck(['memory', 'add', 'A fact from an older version'], w.env).status, 0);
    const h = w.tapedeckHome;
    mkdirSync(join(h, 'queue', 'failed'), { recursive: true });
    writeFileSync(join(h, 'queue', 'failed', 'old.json'), '{}');
    writeFileSync(join(h, 'config.json'), '{}');
    writeFileSync(join(h, 'hooks.log'), 'old log\n');
    for (const [p, m] of [
      [h, 0o755],
      [join(h, 'queue'), 0o755],
      [join(h, 'queue', 'failed'), 0o777],
      [join(h, 'queue', 'failed', 'old.json'), 0o644],
      [join(h, 'config.json'), 0o664],
      [join(h, 'hooks.log'), 0o644],
      [join(h, 'tapedeck.db'), 0o644],
    ] as const)
      chmodSync(p, m);
    assert.ok(openToOthers(h).length >= 7);
    assert.equal(tapedeck(['stats', '--json'], w.env).status, 0);
    assert.deepEqual(openToOthers(h), []);
    assert.equal(statSync(join(h, 'tapedeck.db')).mode & 0o777, 0o600);
    assert.equal(statSync(h).mode & 0o777, 0o700);
  });

  test('a database outside the home (TAPEDECK_DB) is created 0600 with its -wal and -shm', (t) => {
    const w = hookWorld();
    t.after(() => w.cleanup());
    const db = join(w.root, 'elsewhere', 'store.db');
    const env = { ...w.env, TAPEDECK_DB: db };
    assert.equal(tapedeck(['memory', 'add', 'Stored elsewhere'], env).status, 0);
    for (const f of [db, `${db}-wal`, `${db}-shm`]) {
      const st = statSync(f, { throwIfNoEntry: false });
      if (st) assert.equal(st.mode & 0o777, 0o600, f);
    }
    assert.equal(statSync(join(w.root, 'elsewhere')).mode & 0o777, 0o700);
  });
});
