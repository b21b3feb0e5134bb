// Memory search p50 at N memories on sqlite and postgres, same corpus and queries; PG round trips
// per search, and whether both backends return the same hits with the same scores in order.
// `node --import tsx bench/pg-memory-search.ts [N]` with TAPEDECK_TEST_DATABASE_URL set; ONLY_PG=1
// skips SQLite; MB_KEEP=1 keeps the filled schema, MB_SCHEMA=<name> searches it again unfilled.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UNIT_TYPES } from '../src/core/memory.js';
import type { MemoryStore } from '../src/ports/memory-store.js';
import { createMemoryService } from '../src/services/memories.js';
import { createSpaceService } from '../src/services/spaces.js';
import { createPgMemoryStore } from '../src/storage/postgres/memory-store.js';
import { openPg } from '../src/storage/postgres/open.js';
import { createSqliteMemoryStore } from '../src/storage/sqlite/memory-store.js';
import { openDatabase } from '../src/storage/sqlite/open.js';
import { freshSchema } from '../test/support/pg.js';
import { Random } from './corpus/prng.js';
import { T, TextGen } from './corpus/text.js';
import { createWorld } from './corpus/world.js';
import { percentile, round } from './stats.js';

const count = Number(process.argv[2] ?? 10000);
const searches = 200;
function run(backend: 'sqlite' | 'postgres') {
  const rnd = new Random(7);
  const world = createWorld(7, 30);
  const gens = world.map((p) => new TextGen(rnd, p));
  const LABELS = Array.from({ length: 60 }, (_, i) => `${gens[0]!.nounWord().replace(/_/g, '-')}-${i}`);
  const PROJECTS = world.map((p) => p.root);
  let store: MemoryStore;
  let tx: (f: () => void) => void;
  let close: () => void;
  const rt = { n: 0, ms: 0 };
  if (backend === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'hb-'));
    const db = openDatabase(join(dir, 'h.db'));
    store = createSqliteMemoryStore(db);
    tx = (f) => db.transaction(f)();
    close = () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    };
  } else {
    // MB_SCHEMA=name reuses a schema a run with MB_KEEP=1 filled (and kept) with the same corpus.
    const reuse = process.env.MB_SCHEMA;
    const s = reuse
      ? {
          url: `${process.env.TAPEDECK_TEST_DATABASE_URL}?schema=${reuse}`,
          schema: reuse,
          drop() {},
        }
      : freshSchema();
    if (process.env.MB_KEEP) process.stderr.write(`postgres schema kept: ${s.schema}\n`);
    (globalThis as any).reuse = !!reuse;
    const db = openPg(s.url);
    for (const k of ['query', 'one', 'run', 'exec'] as const) {
      const orig = (db.pg as any)[k].bind(db.pg);
      (db.pg as any)[k] = (...a: unknown[]) => {
        rt.n++;
        const t = performance.now();
        try {
          return orig(...a);
        } finally {
          rt.ms += performance.now() - t;
        }
      };
    }
    store = createPgMemoryStore(db);
    tx = (f) => db.pg.transaction(f, 'write');
    (globalThis as any).vac = () => db.pg.exec('VACUUM ANALYZE memories');
    close = () => {
      db.pg.close();
      if (!process.env.MB_KEEP) s.drop();
    };
  }
  let clock = Date.parse('2025-01-01T00:00:00Z');
  const svc = createMemoryService({
    store,
    spaces: createSpaceService(),
    threads: { getThread: () => undefined, getSteps: () => [] },
    now: () => clock,
  });
  const stored: string[] = [];
  const t0 = performance.now();
  for (let i = 0; i < count; i += 250)
    tx(() => {
      for (let j = i; j < Math.min(count, i + 250); j++) {
        clock += 60_000;
        const pi = rnd.zipf(world.map((_, k) => k));
        const content = gens[pi]!.paragraph(T.assistant, rnd.range(1, 3));
        if (stored.length < 5000 && rnd.chance(0.1)) stored.push(content);

        const input = {
          content,
          type: rnd.pick(UNIT_TYPES),
          labels: [rnd.zipf(LABELS), ...(rnd.chance(0.4) ? [rnd.zipf(LABELS)] : [])],
          importance: round(rnd.next(), 2),
          project: rnd.chance(0.7) ? PROJECTS[pi] : undefined,
          space: rnd.chance(0.9) ? 'default' : 'work',
        };
        if (!(backend === 'postgres' && (globalThis as any).reuse)) svc.add(input as any);
      }
    });
  if (backend === 'postgres' && !(globalThis as any).reuse) (globalThis as any).vac();
  process.stderr.write(`${backend}: filled in ${round((performance.now() - t0) / 1000, 1)} s\n`);
  const queries = Array.from({ length: searches }, () => {
    if (rnd.chance(0.5)) return gens[rnd.int(gens.length)]!.sentence(T.user);
    const words = rnd
      .pick(stored)
      .split(/\s+/)
      .filter((w) => /^[a-z][a-z_-]{3,}$/i.test(w));
    return Array.from({ length: rnd.range(1, 3) }, () => rnd.pick(words) ?? 'cache').join(' ');
  });
  const kinds: Record<string, (q: string, i: number) => { hits: { id: string; score: number }[] }> = {
    plain: (q) => svc.search(q, { limit: 10 }),
    'label+type filter': (q, i) =>
      svc.search(q, { limit: 10, labels: LABELS[i % 10], types: UNIT_TYPES[i % UNIT_TYPES.length] }),
    'project filter': (q, i) => svc.search(q, { limit: 10, project: PROJECTS[i % PROJECTS.length] }),
    'all spaces': (q) => svc.search(q, { limit: 10, allSpaces: true }),
  };
  const out: Record<string, unknown> = {};
  const hitsOut: unknown[] = [];
  for (const [kind, f] of Object.entries(kinds)) {
    for (const q of queries.slice(0, 20)) f(q, 0);
    const times: number[] = [];
    const rts: number[] = [];
    const sqlms: number[] = [];
    queries.forEach((q, i) => {
      const r0 = rt.n;
      const m0 = rt.ms;
      const t = performance.now();
      const r = f(q, i);
      times.push(performance.now() - t);
      rts.push(rt.n - r0);
      sqlms.push(rt.ms - m0);
      hitsOut.push(r.hits.map((h) => [(store as any).get(h.id)?.content, h.score]));
    });
    out[kind] = {
      p50: round(percentile(times, 50)),
      p99: round(percentile(times, 99)),
      maxRoundTrips: Math.max(...rts),
      sqlP50: round(percentile(sqlms, 50)),
      jsP50: round(
        percentile(
          times.map((x, i) => x - sqlms[i]!),
          50,
        ),
      ),
    };
  }
  close();
  return { out, hitsOut };
}
const a = process.env.ONLY_PG ? { out: {}, hitsOut: [] } : run('sqlite');
const b = process.env.ONLY_PG ? run('postgres') : run('postgres');
console.log('sqlite', a.out);
console.log('postgres', b.out);
console.log('same scores in order:', JSON.stringify(a.hitsOut) === JSON.stringify(b.hitsOut));
