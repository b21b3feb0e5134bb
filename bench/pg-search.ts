/**
 * Transcript indexing and search on SQLite and PostgreSQL, same corpus, same run: indexes the
 * generated benchmark corpus (bench/generate.ts, cached in bench/.data) through the engine on
 * both backends, then times every planted question through engine.transcripts.search.
 * Prints a Markdown table and writes bench/.out/pg-search-<steps>.json.
 *
 *   TAPEDECK_TEST_DATABASE_URL=postgres://… node --import tsx bench/pg-search.ts --steps 100000
 *     [--seed 1] [--passes 3] [--no-sqlite] [--explain]
 *
 * PostgreSQL gets its own schema (`bench_<pid>_<hex>`), dropped at the end. `--explain` prints
 * EXPLAIN (ANALYZE, BUFFERS) of the statements of the slowest question (to stderr).
 * `--keep <dir>` keeps both stores for the next run (the SQLite file in `<dir>`, the schema named
 * in `<dir>/schema`): a second run re-indexes nothing and times the searches only (for tuning).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/app/config.js';
import { createEngine, type Engine } from '../src/app/engine.js';
import type { TranscriptStore } from '../src/ports/transcript-store.js';
import { searchTranscripts } from '../src/search/search.js';
import { openPg } from '../src/storage/postgres/open.js';
import { connectPgSync, type PgSync } from '../src/storage/postgres/sync-client.js';
import { createPgTranscriptStore } from '../src/storage/postgres/transcript-store.js';
import { generateCorpus, type QuestionRecord } from './generate.js';
import { percentile, round } from './stats.js';

const ROOT = join(import.meta.dirname, '..');
const DATA = join(ROOT, 'bench', '.data');
const OUT = join(ROOT, 'bench', '.out');

const { values } = parseArgs({
  options: {
    steps: { type: 'string', default: '100000' },
    seed: { type: 'string', default: '1' },
    passes: { type: 'string', default: '3' },
    'no-sqlite': { type: 'boolean', default: false },
    explain: { type: 'boolean', default: false },
    /** A corpus directory to use instead of bench/.data/corpus-<steps>-s<seed>. */
    corpus: { type: 'string' },
    /** A directory keeping both stores between runs (see above). */
    keep: { type: 'string' },
  },
});
const steps = Number(values.steps);
const seed = Number(values.seed);
const passes = Math.max(2, Number(values.passes));
const log = (m: string) => process.stderr.write(`[pg-search] ${m}\n`);

const baseUrl = (process.env.TAPEDECK_TEST_DATABASE_URL || process.env.TAPEDECK_DATABASE_URL || '').trim();
if (!baseUrl) {
  log('set TAPEDECK_TEST_DATABASE_URL or TAPEDECK_DATABASE_URL to a PostgreSQL server');
  process.exit(2);
}

async function corpus(): Promise<{ dir: string; questions: QuestionRecord[] }> {
  const dir = values.corpus ?? join(DATA, `corpus-${steps}-s${seed}`);
  if (!existsSync(join(dir, 'manifest.json'))) {
    rmSync(dir, { recursive: true, force: true });
    log(`generating ${steps} steps…`);
    await generateCorpus({ out: dir, steps, seed });
  }
  const questions = readFileSync(join(dir, 'questions.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as QuestionRecord);
  return { dir, questions };
}

interface Timing {
  total: number[];
  candidates: number[];
  texts: number[];
}

interface BackendRun {
  indexSeconds: number;
  steps: number;
  search: { p50: number; p90: number; p99: number; candidatesP50: number; textsP50: number; n: number };
  hitAt10: number;
  /** Per question: the answer's file is among the top 10 hits. */
  hits: boolean[];
  top: string[][];
  slowest: string;
}

/** Times `store.candidates` inside each search (the service calls it; the texts come with it). */
function instrument(store: TranscriptStore, t: { candidates: number; texts: number }): void {
  const candidates = store.candidates.bind(store);
  store.candidates = (...a) => {
    const s = performance.now();
    try {
      return candidates(...a);
    } finally {
      t.candidates += performance.now() - s;
    }
  };
}

async function run(
  name: string,
  engine: Engine,
  questions: QuestionRecord[],
  indexed?: () => void,
): Promise<BackendRun> {
  const t0 = performance.now();
  const summary = engine.transcripts.index();
  const indexSeconds = (performance.now() - t0) / 1000;
  log(`${name}: indexed ${summary.steps.written} steps in ${indexSeconds.toFixed(1)} s`);
  indexed?.();
  const split = { candidates: 0, texts: 0 };
  instrument(engine.store, split);
  const timing: Timing = { total: [], candidates: [], texts: [] };
  const hits: boolean[] = [];
  const top: string[][] = [];
  let slowest = { ms: 0, q: '' };
  for (let pass = 0; pass < passes; pass++) {
    for (const q of questions) {
      split.candidates = 0;
      split.texts = 0;
      const s = performance.now();
      const r = await engine.transcripts.search(q.question, { limit: 10 });
      const ms = performance.now() - s;
      if (pass === 0) {
        hits.push(r.hits.some((h) => h.source.path === q.file));
        top.push(r.hits.map((h) => `${h.thread}#${h.step}`));
        continue; // the first pass warms caches
      }
      timing.total.push(ms);
      timing.candidates.push(split.candidates);
      timing.texts.push(split.texts);
      if (ms > slowest.ms) slowest = { ms, q: q.question };
    }
  }
  const p = (xs: number[], k: number) => round(percentile(xs, k));
  return {
    indexSeconds: round(indexSeconds, 1),
    steps: summary.steps.written,
    search: {
      p50: p(timing.total, 50),
      p90: p(timing.total, 90),
      p99: p(timing.total, 99),
      candidatesP50: p(timing.candidates, 50),
      textsP50: p(timing.texts, 50),
      n: timing.total.length,
    },
    hitAt10: round((100 * hits.filter(Boolean).length) / Math.max(1, hits.length), 1),
    hits,
    top,
    slowest: slowest.q,
  };
}

/** The steps table's planner statistics: when it was last analyzed, rows changed since. */
function analyzeState(pg: PgSync, schema: string) {
  return pg.one<{ analyzed: boolean; mod: number }>(
    `SELECT (last_analyze IS NOT NULL OR last_autoanalyze IS NOT NULL) AS analyzed, n_mod_since_analyze AS mod
     FROM pg_stat_user_tables WHERE schemaname = $1 AND relname = 'steps'`,
    [schema],
  );
}

async function main() {
  const { dir, questions } = await corpus();
  const keep = values.keep;
  if (keep) mkdirSync(keep, { recursive: true });
  const kept =
    keep && existsSync(join(keep, 'schema')) ? readFileSync(join(keep, 'schema'), 'utf8').trim() : '';
  const schema = kept || `bench_${process.pid}_${randomBytes(4).toString('hex')}`;
  if (keep) writeFileSync(join(keep, 'schema'), schema);
  const u = new URL(baseUrl);
  u.searchParams.set('schema', schema);
  const admin = connectPgSync(baseUrl);
  const tmp = mkdtempSync(join(tmpdir(), 'tapedeck-pg-search-'));
  const results: Record<string, BackendRun> = {};
  try {
    if (!values['no-sqlite']) {
      const engine = createEngine(loadConfig({ db: join(keep ?? tmp, 'tapedeck.db') }, { HOME: dir }));
      try {
        results.sqlite = await run('sqlite', engine, questions);
      } finally {
        engine.close();
      }
    }
    const engine = createEngine(loadConfig({ db: u.toString() }, { HOME: dir }));
    try {
      results.postgres = await run('postgres', engine, questions, () =>
        log(`postgres steps table after indexing: ${JSON.stringify(analyzeState(admin, schema))}`),
      );
    } finally {
      engine.close();
    }
    if (values.explain) explain(u.toString(), results.postgres.slowest);
  } finally {
    if (!keep) admin.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    admin.close();
    rmSync(tmp, { recursive: true, force: true });
  }
  report(results, questions.length);
}

/** EXPLAIN (ANALYZE, BUFFERS) of every statement one search sends, on a store of its own. */
function explain(url: string, question: string): void {
  const db = openPg(url);
  const sent: { sql: string; params: unknown[] }[] = [];
  const pg = db.pg as unknown as Record<string, (sql: string, params?: unknown[]) => unknown>;
  const originals = { query: pg.query!, one: pg.one! };
  for (const m of ['query', 'one'] as const)
    pg[m] = (sql: string, params: unknown[] = []) => {
      sent.push({ sql, params });
      return originals[m](sql, params);
    };
  try {
    const store = createPgTranscriptStore(db);
    searchTranscripts(store, question, { limit: 10 });
    sent.length = 0;
    const s = performance.now();
    searchTranscripts(store, question, { limit: 10 });
    log(`"${question}": ${round(performance.now() - s)} ms, ${sent.length} statements`);
    for (const { sql, params } of [...sent]) {
      const plan = originals.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params) as { 'QUERY PLAN': string }[];
      process.stderr.write(
        `\n${sql}\n${JSON.stringify(params).slice(0, 400)}\n${plan.map((r) => r['QUERY PLAN']).join('\n')}\n`,
      );
    }
  } finally {
    db.pg.close();
  }
}

function report(r: Record<string, BackendRun>, n: number) {
  const lines = [
    `Transcript search, ${steps.toLocaleString('en')} steps (seed ${seed}), ${n} planted questions × ${passes - 1} timed passes:`,
    '',
    '| backend | index s | search p50 ms | p90 | p99 | candidates p50 | texts p50 | hit@10 |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const [name, x] of Object.entries(r))
    lines.push(
      `| ${name} | ${x.indexSeconds} | ${x.search.p50} | ${x.search.p90} | ${x.search.p99} | ${x.search.candidatesP50} | ${x.search.textsP50} | ${x.hitAt10}% |`,
    );
  if (r.sqlite && r.postgres) {
    const a = r.sqlite;
    const b = r.postgres;
    const same = a.hits.filter((h, i) => h === b.hits[i]).length;
    const overlap = a.top.map((t, i) => {
      const other = new Set(b.top[i]);
      const both = t.filter((x) => other.has(x)).length;
      return both / Math.max(1, new Set([...t, ...b.top[i]!]).size);
    });
    lines.push(
      '',
      `hit@10 agreement: ${same}/${a.hits.length} questions; top-10 overlap (Jaccard) mean ${round(overlap.reduce((s, x) => s + x, 0) / Math.max(1, overlap.length), 2)}; indexing PG/SQLite ${round(b.indexSeconds / a.indexSeconds, 2)}×`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  mkdirSync(OUT, { recursive: true });
  const slim = Object.fromEntries(
    Object.entries(r).map(([k, v]) => [k, { ...v, hits: undefined, top: undefined }]),
  );
  writeFileSync(join(OUT, `pg-search-${steps}.json`), `${JSON.stringify(slim, null, 2)}\n`);
}

await main();
