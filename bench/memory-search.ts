/**
 * Memory search latency at scale: creates N memories (default 100,000) through the memory service
 * (redaction, dedup checks and all) in a temporary SQLite file, then times 200 searches of each
 * kind (plain; filtered by label and type; across all spaces) and prints p50/p99 in ms.
 *
 *   node --import tsx bench/memory-search.ts [--count 100000] [--searches 200] [--seed 7] [--json]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { UNIT_TYPES } from '../src/core/memory.js';
import { createMemoryService } from '../src/services/memories.js';
import { createSpaceService } from '../src/services/spaces.js';
import { createSqliteMemoryStore } from '../src/storage/sqlite/memory-store.js';
import { openDatabase } from '../src/storage/sqlite/open.js';
import { Random } from './corpus/prng.js';
import { T, TextGen } from './corpus/text.js';
import { createWorld } from './corpus/world.js';
import { percentile, round } from './stats.js';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '100000' },
    searches: { type: 'string', default: '200' },
    seed: { type: 'string', default: '7' },
    json: { type: 'boolean', default: false },
  },
});
const count = Number(values.count);
const searches = Number(values.searches);
const log = (m: string) => process.stderr.write(`[bench:memory] ${m}\n`);

const rnd = new Random(Number(values.seed));
// The transcript corpus's world and sentence templates: realistic words with a long tail
// (project modules, identifiers, paths, libraries, error codes).
const world = createWorld(Number(values.seed), 30);
const gens = world.map((p) => new TextGen(rnd, p));
const LABELS = Array.from({ length: 60 }, (_, i) => `${gens[0].nounWord().replace(/_/g, '-')}-${i}`);
const PROJECTS = world.map((p) => p.root);

/** One to three sentences of what an assistant says when it settles something. */
function memoryText(g: TextGen): string {
  return g.paragraph(T.assistant, rnd.range(1, 3));
}

/** What people type when they look something up: a few words of a real memory, or a question. */
function queryText(stored: string[]): string {
  if (rnd.chance(0.5)) return gens[rnd.int(gens.length)].sentence(T.user);
  const words = rnd
    .pick(stored)
    .split(/\s+/)
    .filter((w) => /^[a-z][a-z_-]{3,}$/i.test(w));
  return Array.from({ length: rnd.range(1, 3) }, () => rnd.pick(words) ?? 'cache').join(' ');
}

const dir = mkdtempSync(join(tmpdir(), 'tapedeck-bench-memory-'));
const dbPath = join(dir, 'tapedeck.db');
try {
  const db = openDatabase(dbPath);
  const store = createSqliteMemoryStore(db);
  const spaces = createSpaceService();
  let clock = Date.parse('2025-01-01T00:00:00Z');
  const threads = { getThread: () => undefined, getSteps: () => [] };
  const svc = createMemoryService({ store, spaces, threads, now: () => clock });

  log(`adding ${count.toLocaleString('en-US')} memories…`);
  const t0 = performance.now();
  const BATCH = 2000;
  let deduped = 0;
  const stored: string[] = [];
  for (let i = 0; i < count; i += BATCH) {
    // Batches share one transaction (each add nests as a savepoint) so the fill takes seconds.
    db.transaction(() => {
      for (let j = i; j < Math.min(count, i + BATCH); j++) {
        clock += 60_000;
        const pi = rnd.zipf(world.map((_, k) => k));
        const content = memoryText(gens[pi]);
        if (stored.length < 5000 && rnd.chance(0.1)) stored.push(content);
        const r = svc.add({
          content,
          type: rnd.pick(UNIT_TYPES),
          labels: [rnd.zipf(LABELS), ...(rnd.chance(0.4) ? [rnd.zipf(LABELS)] : [])],
          importance: round(rnd.next(), 2),
          project: rnd.chance(0.7) ? PROJECTS[pi] : undefined,
          space: rnd.chance(0.9) ? 'default' : 'work',
        });
        if (r.deduplicated) deduped++;
      }
    })();
  }
  const fillMs = performance.now() - t0;
  db.pragma('optimize');
  log(
    `filled in ${round(fillMs / 1000, 1)} s (${round((fillMs * 1000) / count, 0)} µs per add, ${deduped} deduplicated)`,
  );

  const queries = Array.from({ length: searches }, () => queryText(stored));
  const kinds: Record<string, (q: string, i: number) => unknown> = {
    plain: (q) => svc.search(q, { limit: 10 }),
    'label+type filter': (q, i) =>
      svc.search(q, { limit: 10, labels: LABELS[i % 10], types: UNIT_TYPES[i % UNIT_TYPES.length] }),
    'project filter': (q, i) => svc.search(q, { limit: 10, project: PROJECTS[i % PROJECTS.length] }),
    'all spaces': (q) => svc.search(q, { limit: 10, allSpaces: true }),
  };
  const results: Record<
    string,
    { p50: number; p99: number; cpuP50: number; cpuP99: number; meanHits: number }
  > = {};
  for (const [kind, run] of Object.entries(kinds)) {
    for (const q of queries.slice(0, 20)) run(q, 0); // warm the page cache
    const times: number[] = [];
    // CPU time beside wall time: on a shared machine, waiting for a core inflates wall time only.
    const cpu: number[] = [];
    let hits = 0;
    queries.forEach((q, i) => {
      const c = process.cpuUsage();
      const t = performance.now();
      const r = run(q, i) as { hits: unknown[] };
      times.push(performance.now() - t);
      const d = process.cpuUsage(c);
      cpu.push((d.user + d.system) / 1000);
      hits += r.hits.length;
    });
    results[kind] = {
      p50: round(percentile(times, 50)),
      p99: round(percentile(times, 99)),
      cpuP50: round(percentile(cpu, 50)),
      cpuP99: round(percentile(cpu, 99)),
      meanHits: round(hits / queries.length, 1),
    };
  }
  db.close();

  if (values.json)
    process.stdout.write(`${JSON.stringify({ count, searches, fillMs: round(fillMs), results }, null, 2)}\n`);
  else {
    process.stdout.write(
      `Memory search at ${count.toLocaleString('en-US')} memories (${searches} searches each)\n\n`,
    );
    process.stdout.write(
      '| search | p50 ms | p99 ms | CPU p50 ms | CPU p99 ms | mean hits |\n|---|---:|---:|---:|---:|---:|\n',
    );
    for (const [k, v] of Object.entries(results))
      process.stdout.write(`| ${k} | ${v.p50} | ${v.p99} | ${v.cpuP50} | ${v.cpuP99} | ${v.meanHits} |\n`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
