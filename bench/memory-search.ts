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
import { ADJECTIVES, DOMAIN_NOUNS, GENERAL_NOUNS, LIBRARIES, TECH_NOUNS, VERBS } from './corpus/lexicon.js';
import { Random } from './corpus/prng.js';
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
const LABELS = Array.from({ length: 60 }, (_, i) => `${rnd.pick(TECH_NOUNS)}-${i}`);
const PROJECTS = Array.from({ length: 25 }, (_, i) => `/home/dev/${rnd.pick(DOMAIN_NOUNS)}-${i}`);
const VOCAB = [...TECH_NOUNS, ...DOMAIN_NOUNS, ...LIBRARIES, ...GENERAL_NOUNS];

function sentence(r: Random): string {
  const n = r.range(8, 40);
  const w: string[] = [];
  for (let i = 0; i < n; i++) {
    const k = r.int(10);
    w.push(k < 5 ? r.zipf(VOCAB) : k < 7 ? r.zipf(VERBS) : k < 8 ? r.zipf(ADJECTIVES) : r.pick(['the', 'a', 'to', 'for', 'with', 'in', 'on']));
  }
  // A serial number keeps generated texts apart, as real memories are (dedup would merge clones).
  return `${w.join(' ')} (note ${r.int(1e9)}).`;
}

const dir = mkdtempSync(join(tmpdir(), 'hippo-bench-memory-'));
const dbPath = join(dir, 'hippo.db');
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
  for (let i = 0; i < count; i += BATCH) {
    // Batches share one transaction (each add nests as a savepoint) so the fill takes seconds.
    db.transaction(() => {
      for (let j = i; j < Math.min(count, i + BATCH); j++) {
        clock += 60_000;
        const r = svc.add({
          content: sentence(rnd),
          type: rnd.pick(UNIT_TYPES),
          labels: [rnd.zipf(LABELS), ...(rnd.chance(0.4) ? [rnd.zipf(LABELS)] : [])],
          importance: round(rnd.next(), 2),
          project: rnd.chance(0.7) ? rnd.pick(PROJECTS) : undefined,
          space: rnd.chance(0.9) ? 'default' : 'work',
        });
        if (r.deduplicated) deduped++;
      }
    })();
  }
  const fillMs = performance.now() - t0;
  db.pragma('optimize');
  log(`filled in ${round(fillMs / 1000, 1)} s (${round((fillMs * 1000) / count, 0)} µs per add, ${deduped} deduplicated)`);

  const queries = Array.from({ length: searches }, () =>
    Array.from({ length: rnd.range(1, 3) }, () => rnd.zipf(VOCAB)).join(' '),
  );
  const kinds: Record<string, (q: string, i: number) => unknown> = {
    plain: (q) => svc.search(q, { limit: 10 }),
    'label+type filter': (q, i) =>
      svc.search(q, { limit: 10, labels: LABELS[i % 10], types: UNIT_TYPES[i % UNIT_TYPES.length] }),
    'project filter': (q, i) => svc.search(q, { limit: 10, project: PROJECTS[i % PROJECTS.length] }),
    'all spaces': (q) => svc.search(q, { limit: 10, allSpaces: true }),
  };
  const results: Record<string, { p50: number; p99: number; meanHits: number }> = {};
  for (const [kind, run] of Object.entries(kinds)) {
    for (const q of queries.slice(0, 20)) run(q, 0); // warm the page cache
    const times: number[] = [];
    let hits = 0;
    queries.forEach((q, i) => {
      const t = performance.now();
      const r = run(q, i) as { hits: unknown[] };
      times.push(performance.now() - t);
      hits += r.hits.length;
    });
    results[kind] = { p50: round(percentile(times, 50)), p99: round(percentile(times, 99)), meanHits: round(hits / queries.length, 1) };
  }
  db.close();

  if (values.json) process.stdout.write(`${JSON.stringify({ count, searches, fillMs: round(fillMs), results }, null, 2)}\n`);
  else {
    process.stdout.write(`Memory search at ${count.toLocaleString('en-US')} memories (${searches} searches each)\n\n`);
    process.stdout.write('| search | p50 ms | p99 ms | mean hits |\n|---|---:|---:|---:|\n');
    for (const [k, v] of Object.entries(results)) process.stdout.write(`| ${k} | ${v.p50} | ${v.p99} | ${v.meanHits} |\n`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
