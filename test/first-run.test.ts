/**
 * A newcomer's first commands, as real child processes: the quickstart's suggested next command
 * run verbatim by a shell, `--project .` in search and threads, and `-redis` as a query's first
 * word without quotes.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { BIN, tapedeck } from './support/cli.js';
import { claudeLine, claudePath, type TempHome, tempHome } from './support/home.js';

describe('quickstart', () => {
  let h: TempHome;
  let bin: string;
  before(() => {
    h = tempHome();
    // `tapedeck` on PATH, as npm installs it.
    bin = join(h.home, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'tapedeck'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    chmodSync(join(bin, 'tapedeck'), 0o755);
  });
  after(() => h.cleanup());

  const next = (stdout: string) => {
    const m = /^Explore the samples: (.+)$/m.exec(stdout);
    assert.ok(m, stdout);
    return m[1];
  };

  /** Run a printed command line as a user pasting it would. */
  const sh = (command: string) => {
    const r = spawnSync('sh', ['-c', command], {
      env: { ...h.env, PATH: `${bin}:${process.env.PATH}` },
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, `${command}\n${r.stderr}`);
    return r.stdout;
  };
  /** The first `tapedeck show …` a search printed, without the file:line after it. */
  const firstShow = (stdout: string) => {
    const m = /^\s*(tapedeck show \S+ --step \d+ --db \S+)\s{3}/m.exec(stdout);
    assert.ok(m, stdout);
    return m[1];
  };

  test('every command the quickstart prints works verbatim, shows the samples again, and keeps the demo store', () => {
    const q = tapedeck(['quickstart'], h.env);
    assert.equal(q.status, 0, q.stderr);
    const command = next(q.stdout);
    assert.match(command, /^tapedeck search "flaky test rounding" --db \S+ --no-index$/);
    assert.match(q.stdout, /^\$ tapedeck search "why did we drop the redis cache\?" --db \S+ --no-index$/m);
    assert.match(sh(firstShow(q.stdout)), /#\d+/, 'the show line of a hit opens it');
    for (let i = 0; i < 2; i++) {
      const out = sh(command);
      assert.match(out, /order_total_rounding|rounding/i, `run ${i + 1} shows the samples: ${out}`);
      assert.match(sh(firstShow(out)), /rounding|#\d+/i);
    }
    // It never touched the real store.
    const stats = tapedeck(['stats', '--json'], h.env);
    assert.equal(stats.json().threads, 0);
  });

  test('run through npx, it says npx', () => {
    const q = tapedeck(['quickstart'], { ...h.env, npm_command: 'exec' });
    assert.equal(q.status, 0, q.stderr);
    assert.match(next(q.stdout), /^npx tapedeck search "flaky test rounding" --db /);
  });
});

describe('search and threads from a project directory', () => {
  let h: TempHome;
  let project: string;
  const S1 = '7a7a7a7a-1111-4222-8333-444444444444';
  const S2 = '7a7a7a7a-2222-4222-8333-444444444444';
  /** A Claude Code line recorded in `cwd`. */
  const at = (cwd: string, line: string) => JSON.stringify({ ...JSON.parse(line), cwd });

  before(() => {
    h = tempHome();
    project = join(h.home, 'src', 'shop');
    mkdirSync(join(project, 'web'), { recursive: true });
    h.write(
      claudePath(S1),
      `${[
        at(project, claudeLine(S1, 'user', 'Should the price cache use redis?')),
        at(project, claudeLine(S1, 'assistant', 'We dropped the redis cache; prices are cached in process.')),
      ].join('\n')}\n`,
    );
    h.write(
      claudePath(S2),
      `${[
        at(project, claudeLine(S2, 'user', 'Make the cache an LRU')),
        at(project, claudeLine(S2, 'assistant', 'The cache is now an LRU with a 60 second TTL.')),
      ].join('\n')}\n`,
    );
    assert.equal(tapedeck(['index'], h.env).status, 0);
  });
  after(() => h.cleanup());

  test('--project . and relative paths mean the directory the command runs in', () => {
    const here = tapedeck(['search', 'cache', '--project', '.', '--no-index', '--json'], h.env, {
      cwd: project,
    });
    assert.equal(here.status, 0, here.stderr);
    assert.ok(here.json().hits.length > 0, 'found from the project directory');
    const parent = tapedeck(['threads', '--project', '..', '--json'], h.env, { cwd: join(project, 'web') });
    assert.equal(parent.json().threads.length, 2);
    const below = tapedeck(['threads', '--project', '.'], h.env, { cwd: join(project, 'web') });
    assert.equal(below.status, 0);
    assert.equal(below.stdout.trim(), 'No threads match these filters.');
    const empty = tempHome();
    try {
      assert.match(tapedeck(['threads'], empty.env).stdout, /indexed yet/);
    } finally {
      empty.cleanup();
    }
  });

  test('-redis as the first word excludes it, unquoted; a mistyped --flag is still a usage error', () => {
    const r = tapedeck(['search', '-redis', 'cache', '--no-index', '--json'], h.env);
    assert.equal(r.status, 0, r.stderr);
    const hits = r.json().hits as { thread: string; snippet: string }[];
    assert.ok(hits.length > 0);
    assert.ok(
      hits.every((x) => x.thread.endsWith(S2)),
      JSON.stringify(hits),
    );
    const typo = tapedeck(['search', 'cache', '--limt', '3'], h.env);
    assert.equal(typo.status, 2);
    assert.match(typo.stderr, /unknown option '--limt'.*tapedeck search -- --limt/);
  });
});
