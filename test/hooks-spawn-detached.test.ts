/**
 * The hooks' detached start (src/interfaces/hooks/spawn-detached.ts): the background process runs
 * with the environment it was given, outlives the hook without holding it open, and a start that
 * cannot happen is an error the hook can log — not a hang, not a crash later.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { spawnDetached } from '../src/interfaces/hooks/spawn-detached.js';

const dir = mkdtempSync(join(tmpdir(), 'tapedeck-spawn-detached-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function waitFor(path: string, ms = 10_000): Promise<void> {
  const t = Date.now();
  while (!existsSync(path) && Date.now() - t < ms) await new Promise((r) => setTimeout(r, 20));
}

it('runs the program with its arguments and exactly the environment given', async () => {
  const out = join(dir, 'env.json');
  // Written whole and then renamed into place, so the test never reads a half-written file.
  const script = `const fs = require('node:fs'); fs.writeFileSync(process.argv[1] + '.tmp', JSON.stringify({ x: process.env.TAPEDECK_X, home: process.env.HOME ?? null, args: process.argv.slice(2) })); fs.renameSync(process.argv[1] + '.tmp', process.argv[1])`;
  const child = spawnDetached(
    process.execPath,
    ['-e', script, out, 'a b', 'é'],
    { TAPEDECK_X: 'ok=1', HOME: undefined },
    (e) => {
      throw e;
    },
  );
  assert.equal(typeof child.pid, 'number');
  await waitFor(out);
  assert.deepEqual(JSON.parse(readFileSync(out, 'utf8')), { x: 'ok=1', home: null, args: ['a b', 'é'] });
});

it('does not keep the starting process alive, and the child outlives it', async () => {
  const done = join(dir, 'late');
  const child = `setTimeout(() => require('node:fs').writeFileSync(${JSON.stringify(done)}, 'x'), 3000)`;
  const parent = `const { spawnDetached } = await import(${JSON.stringify(join(import.meta.dirname, '..', 'src', 'interfaces', 'hooks', 'spawn-detached.ts'))}); spawnDetached(process.execPath, ['-e', ${JSON.stringify(child)}], process.env, (e) => { throw e; });`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', parent], {
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(existsSync(done), false, 'the parent returned before the child finished');
  await waitFor(done);
  assert.equal(existsSync(done), true, 'the detached child ran to its end after the parent exited');
});

it('a program that does not exist is reported as an error with its code', async () => {
  const failed = await new Promise<NodeJS.ErrnoException>((resolve) => {
    spawnDetached(join(dir, 'no-such-program'), [], {}, resolve);
  });
  assert.equal(failed.code, 'ENOENT');
});
