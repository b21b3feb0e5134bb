/**
 * Context-bundle build time: a store with N memories (default 10,000) over 20 projects and T
 * indexed Claude Code sessions (default 500, spread over the last 10 days), 20 rules and 30
 * skills; times `contextBundle.build` (rules, working memory, memories, skills, packing) and prints
 * p50/p95 in ms. The first build also generates the day's working memory and is reported apart,
 * as is a forced working-memory regeneration. Goal: p50 ≤ 20 ms.
 *
 *   node --import tsx bench/context-bundle.ts [--memories 10000] [--threads 500] [--builds 200] [--json]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/app/config.js';
import { createEngine } from '../src/app/engine.js';
import { UNIT_TYPES } from '../src/core/memory.js';
import { createMemoryService } from '../src/services/memories.js';
import { createSpaceService } from '../src/services/spaces.js';
import { createSqliteMemoryStore } from '../src/storage/sqlite/memory-store.js';
import { openDatabase } from '../src/storage/sqlite/open.js';
import { Random } from './corpus/prng.js';
import { percentile, round } from './stats.js';

const { values } = parseArgs({
  options: {
    memories: { type: 'string', default: '10000' },
    threads: { type: 'string', default: '500' },
    builds: { type: 'string', default: '200' },
    seed: { type: 'string', default: '7' },
    json: { type: 'boolean', default: false },
  },
});
const nMemories = Number(values.memories);
const nThreads = Number(values.threads);
const nBuilds = Number(values.builds);
const log = (m: string) => process.stderr.write(`[bench:context] ${m}\n`);
const rnd = new Random(Number(values.seed));

const WORDS =
  'cache retry invoice ledger queue shard token lambda cursor schema webhook payload batch index checkout cart vat refund migration deploy pipeline lint flaky test fixture parser redis postgres kafka stripe'.split(
    ' ',
  );
const words = (n: number) => Array.from({ length: n }, () => rnd.pick(WORDS)).join(' ');
const PROJECTS = Array.from({ length: 20 }, (_, i) => `/home/dev/project-${i}`);
const DAY = 86_400_000;
const now = Date.now();

const root = mkdtempSync(join(tmpdir(), 'tapedeck-bench-context-'));
const home = join(root, 'home');
const env = { HOME: home, TAPEDECK_HOME: join(root, 'tapedeck') };
try {
  log(`writing ${nThreads} Claude Code sessions…`);
  for (let t = 0; t < nThreads; t++) {
    const cwd = rnd.zipf(PROJECTS);
    const start = now - rnd.next() * 10 * DAY;
    const lines: string[] = [];
    const turns = rnd.range(4, 16);
    for (let s = 0; s < turns; s++) {
      const user = s % 2 === 0;
      const text = user
        ? `Please ${words(rnd.range(4, 12))}`
        : `${rnd.chance(0.3) ? "Let's use " : ''}${words(rnd.range(10, 40))}. ${rnd.chance(0.3) ? 'Done: tests pass.' : ''}`;
      lines.push(
        JSON.stringify({
          parentUuid: null,
          isSidechain: false,
          userType: 'external',
          cwd,
          sessionId: `s${t}`,
          version: '2.0.14',
          type: user ? 'user' : 'assistant',
          uuid: `00000000-0000-4000-8000-${(t * 100 + s).toString(16).padStart(12, '0')}`,
          timestamp: new Date(start + s * 60_000).toISOString(),
          message: user
            ? { role: 'user', content: text }
            : {
                id: `m${t}-${s}`,
                type: 'message',
                role: 'assistant',
                model: 'x',
                content: [{ type: 'text', text }],
              },
        }),
      );
    }
    const dir = join(home, '.claude', 'projects', cwd.replace(/\//g, '-'));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `s${t}.jsonl`), `${lines.join('\n')}\n`);
  }
  const config = loadConfig({}, env);
  let engine = createEngine(config);
  engine.transcripts.index();
  for (let i = 0; i < 20; i++)
    await engine.rules.add({
      body: `Rule ${i}: ${words(rnd.range(5, 30))}.`,
      scope: i % 3 === 0 ? `project:${PROJECTS[i % 20]}` : i % 3 === 1 ? 'agent:claude-code' : 'global',
      priority: rnd.int(5),
    });
  for (let i = 0; i < 30; i++)
    engine.skills.add({
      name: `skill-${i}`,
      description: `Use when ${words(rnd.range(5, 15))}`,
      body: '# Steps',
    });
  engine.close();

  log(`adding ${nMemories.toLocaleString('en-US')} memories…`);
  const db = openDatabase(config.dbPath);
  let clock = now - 90 * DAY;
  const memories = createMemoryService({
    store: createSqliteMemoryStore(db),
    spaces: createSpaceService(),
    threads: { getThread: () => undefined, getSteps: () => [] },
    now: () => clock,
  });
  for (let i = 0; i < nMemories; i += 1000)
    db.transaction(() => {
      for (let j = i; j < Math.min(nMemories, i + 1000); j++) {
        clock += (90 * DAY) / nMemories;
        memories.add({
          content: `Memory ${j}: ${words(rnd.range(8, 40))}`,
          type: rnd.pick(UNIT_TYPES),
          importance: round(rnd.next(), 2),
          project: rnd.chance(0.7) ? rnd.zipf(PROJECTS) : undefined,
        });
      }
    })();
  db.pragma('optimize');
  db.close();

  engine = createEngine(config);
  const input = { agent: 'claude-code', project: PROJECTS[0] };
  let t = performance.now();
  const first = await engine.contextBundle.build(input);
  const coldMs = performance.now() - t;
  const regen: number[] = [];
  for (let i = 0; i < 10; i++) {
    t = performance.now();
    await engine.workingMemory.refresh();
    regen.push(performance.now() - t);
  }
  const run = async (budget: number) => {
    for (let i = 0; i < 10; i++) await engine.contextBundle.build({ ...input, budget });
    const times: number[] = [];
    for (let i = 0; i < nBuilds; i++) {
      const s = performance.now();
      await engine.contextBundle.build({ ...input, project: PROJECTS[i % PROJECTS.length], budget });
      times.push(performance.now() - s);
    }
    return { p50: round(percentile(times, 50)), p95: round(percentile(times, 95)) };
  };
  const results = {
    memories: nMemories,
    threads: engine.stats().threads,
    coldMs: round(coldMs),
    wmRegenerateP50: round(percentile(regen, 50)),
    budget1500: await run(1500),
    budget8000: await run(8000),
    items: first.items.length,
    omitted: first.omitted.length,
    tokens: first.tokens,
  };
  engine.close();
  if (values.json) process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  else {
    process.stdout.write(
      `Context bundle over ${nMemories.toLocaleString('en-US')} memories and ${results.threads} threads (${nBuilds} builds)\n\n`,
    );
    process.stdout.write('| case | p50 ms | p95 ms |\n|---|---:|---:|\n');
    process.stdout.write(`| build, budget 1,500 | ${results.budget1500.p50} | ${results.budget1500.p95} |\n`);
    process.stdout.write(`| build, budget 8,000 | ${results.budget8000.p50} | ${results.budget8000.p95} |\n`);
    process.stdout.write(`| first build of the day (generates working memory) | ${results.coldMs} | |\n`);
    process.stdout.write(`| working-memory regeneration | ${results.wmRegenerateP50} | |\n`);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
