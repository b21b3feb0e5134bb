/**
 * The code cache of the built CLI (bin/load-bundle.js): written once per command into an
 * owner-only folder, read back unchanged on the next run, rewritten when it is unusable, never
 * read from a folder others can write to, and off with TAPEDECK_CODE_CACHE=0. Whatever the
 * cache holds, the command answers the same. Needs `npm run build` first.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';

const BIN = join(import.meta.dirname, '..', 'bin', 'tapedeck.js');
const dir = mkdtempSync(join(tmpdir(), 'tapedeck-code-cache-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** `tapedeck stats --json` in an empty home (it creates nothing there), with the cache in `cache`. */
function stats(cache: string): unknown {
  const r = spawnSync(process.execPath, [BIN, 'stats', '--json'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      TAPEDECK_HOME: join(dir, 'home'),
      TAPEDECK_CODE_CACHE: cache,
    },
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

it('the first run writes an owner-only cache, the next reads it without writing again', () => {
  const cache = join(dir, 'c1');
  const first = stats(cache);
  const files = readdirSync(cache);
  assert.equal(files.length, 1, files.join(' '));
  assert.match(files[0], /-cli-stats-\w+-v\d+\.\d+\.\d+-\w+\.v8$/);
  assert.equal(statSync(cache).mode & 0o777, 0o700);
  assert.equal(statSync(join(cache, files[0])).mode & 0o777, 0o600);
  const written = statSync(join(cache, files[0])).mtimeMs;
  assert.deepEqual(stats(cache), first);
  assert.equal(statSync(join(cache, files[0])).mtimeMs, written, 'an accepted cache is not written again');
});

it('an unusable cache changes nothing but is written again; a stale build’s file is removed', () => {
  const cache = join(dir, 'c2');
  const want = stats(cache);
  const [file] = readdirSync(cache);
  const stale = file.replace(/-cli-stats-\w+-/, '-cli-stats-0000000000000000-');
  writeFileSync(join(cache, stale), 'old build');
  for (const junk of ['not a cache', `tapedeck-code-cache-1\n${'\u0005\u0000'.repeat(40)}garbage`]) {
    writeFileSync(join(cache, file), junk);
    assert.deepEqual(stats(cache), want);
    assert.ok(statSync(join(cache, file)).size > 10_000, 'rewritten with the compiled code');
  }
  assert.deepEqual(readdirSync(cache), [file]);
});

it('a folder others can write to is neither read nor written', () => {
  const cache = join(dir, 'c3');
  mkdirSync(cache);
  chmodSync(cache, 0o777);
  const want = stats(join(dir, 'c4'));
  assert.deepEqual(stats(cache), want);
  assert.deepEqual(readdirSync(cache), []);
});

it('TAPEDECK_CODE_CACHE=0 turns it off', () => {
  const before = readdirSync(tmpdir())
    .filter((f) => f.startsWith('tapedeck-code-cache-'))
    .sort();
  stats('0');
  const now = readdirSync(tmpdir())
    .filter((f) => f.startsWith('tapedeck-code-cache-'))
    .sort();
  assert.deepEqual(now, before);
});
