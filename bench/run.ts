/**
 * `npm run bench`: generates corpora in the four agents' real shapes, then measures full-index
 * throughput and peak memory, the no-change re-run, search latency and hit rate against a naive
 * FTS5 baseline (every word ANDed) built from the same steps in the same run, and the MCP search
 * round trip over stdio. Prints a Markdown table; writes bench/.out/results.json.
 *
 *   npm run bench -- [--sizes 10000,100000,1000000] [--seed 1] [--no-mcp]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { loadConfig } from '../src/app/config.js';
import { createEngine } from '../src/app/engine.js';
import { generateCorpus, type Manifest, type QuestionRecord } from './generate.js';
import { buildNaive } from './naive.js';
import { percentile, round } from './stats.js';

const ROOT = join(import.meta.dirname, '..');
const DATA = join(ROOT, 'bench', '.data');
const OUT = join(ROOT, 'bench', '.out');

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000,1000000' },
    seed: { type: 'string', default: '1' },
    'no-mcp': { type: 'boolean', default: false },
  },
});
const sizes = values.sizes!.split(',').map(Number);
const seed = Number(values.seed);
const log = (m: string) => process.stderr.write(`[bench] ${m}\n`);

async function corpus(
  steps: number,
): Promise<{ dir: string; manifest: Manifest; questions: QuestionRecord[] }> {
  const dir = join(DATA, `corpus-${steps}-s${seed}`);
  const mf = join(dir, 'manifest.json');
  if (!existsSync(mf)) {
    rmSync(dir, { recursive: true, force: true });
    log(`generating ${steps} steps…`);
    await generateCorpus({ out: dir, steps, seed });
  }
  const manifest = JSON.parse(readFileSync(mf, 'utf8')) as Manifest;
  const questions = readFileSync(join(dir, 'questions.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as QuestionRecord);
  return { dir, manifest, questions };
}

interface HitRate {
  at1: number;
  at5: number;
  at10: number;
  none: number;
  n: number;
}

function hitRate(ranks: (number | null)[]): HitRate {
  const n = ranks.length;
  const pct = (k: number) =>
    round((100 * ranks.filter((r) => r !== null && r <= k).length) / Math.max(1, n), 1);
  return {
    at1: pct(1),
    at5: pct(5),
    at10: pct(10),
    none: round((100 * ranks.filter((r) => r === null).length) / Math.max(1, n), 1),
    n,
  };
}

function rankOf(paths: string[], file: string): number | null {
  const i = paths.indexOf(file);
  return i === -1 ? null : i + 1;
}

async function mcpRoundTrip(db: string, home: string, queries: string[]) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(ROOT, 'bin', 'tapedeck.js'), 'mcp', '--db', db],
    env: { HOME: home, PATH: process.env.PATH ?? '' },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  const times: number[] = [];
  for (let i = 0; i < 200; i++) {
    const t = performance.now();
    await client.callTool({
      name: 'recall',
      arguments: { query: queries[i % queries.length], in: 'sessions' },
    });
    times.push(performance.now() - t);
  }
  await client.close();
  return {
    p50: round(percentile(times.slice(20), 50)),
    p99: round(percentile(times.slice(20), 99)),
    calls: times.length - 20,
  };
}

async function benchSize(steps: number, withMcp: boolean) {
  const { dir, manifest, questions } = await corpus(steps);
  mkdirSync(OUT, { recursive: true });
  const db = join(DATA, `tapedeck-${steps}-s${seed}.db`);
  for (const s of ['', '-wal', '-shm']) rmSync(db + s, { force: true });

  log(`${steps}: full index of ${manifest.files} files, ${(manifest.bytes / 1e6).toFixed(0)} MB…`);
  const child = spawnSync(process.execPath, [join(ROOT, 'bench', 'index-child.mjs'), dir, db], {
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  if (child.status !== 0) throw new Error(`index child failed: ${child.stderr}`);
  const full = JSON.parse(child.stdout.trim().split('\n').at(-1)!);
  const mbPerSec = manifest.bytes / 1e6 / (full.ms / 1000);

  const engine = createEngine(loadConfig({ db }, { HOME: dir }));
  const rerunTimes: number[] = [];
  for (let i = 0; i < 7; i++) {
    const t = performance.now();
    const s = engine.transcripts.index();
    rerunTimes.push(performance.now() - t);
    if (s.steps.written !== 0) throw new Error('re-run wrote steps');
  }
  const cliT = performance.now();
  spawnSync(process.execPath, [join(ROOT, 'bin', 'tapedeck.js'), 'index', '--json', '--db', db], {
    env: { HOME: dir, PATH: process.env.PATH ?? '' },
  });
  const cliRerun = performance.now() - cliT;

  // Search: every planted question, three times each; the first pass warms the page cache.
  const kinds = { question: [] as number[], keyword: [] as number[] };
  const tapedeckRanks: (number | null)[] = [];
  for (let pass = 0; pass < 3; pass++) {
    for (const q of questions) {
      const t = performance.now();
      const r = await engine.transcripts.search(q.question, { limit: 10 });
      const ms = performance.now() - t;
      if (pass > 0) kinds[q.kind === 'keyword' ? 'keyword' : 'question'].push(ms);
      if (pass === 0)
        tapedeckRanks.push(
          rankOf(
            r.hits.map((h) => h.source.path),
            q.file,
          ),
        );
    }
  }
  engine.close();

  const naive = buildNaive(db, join(DATA, `naive-${steps}.db`));
  const naiveTimes: number[] = [];
  const naiveRanks: (number | null)[] = [];
  for (let pass = 0; pass < 3; pass++) {
    for (const q of questions) {
      const t = performance.now();
      const rows = naive.index.search(q.question, 10);
      if (pass > 0) naiveTimes.push(performance.now() - t);
      if (pass === 0) naiveRanks.push(rankOf([...new Set(rows.map((r) => r.path))], q.file));
    }
  }
  naive.index.close();
  rmSync(join(DATA, `naive-${steps}.db`), { force: true });

  const mcp = withMcp
    ? await mcpRoundTrip(
        db,
        dir,
        questions.map((q) => q.question),
      )
    : null;
  const dbBytes = statSync(db).size + (existsSync(`${db}-wal`) ? statSync(`${db}-wal`).size : 0);
  return {
    steps,
    sessions: manifest.sessions,
    files: manifest.files,
    corpusMB: round(manifest.bytes / 1e6, 1),
    index: {
      seconds: round(full.ms / 1000, 2),
      mbPerSec: round(mbPerSec, 1),
      maxRssMB: round(full.maxRssMB, 0),
      issues: full.issues,
      dbMB: round(dbBytes / 1e6, 1),
    },
    rerun: { p50ms: round(percentile(rerunTimes.slice(1), 50)), cliMs: round(cliRerun, 0) },
    search: {
      question: {
        p50: round(percentile(kinds.question, 50)),
        p99: round(percentile(kinds.question, 99)),
        n: kinds.question.length,
      },
      keyword: {
        p50: round(percentile(kinds.keyword, 50)),
        p99: round(percentile(kinds.keyword, 99)),
        n: kinds.keyword.length,
      },
      hitRate: hitRate(tapedeckRanks),
    },
    naive: {
      buildSeconds: round(naive.ms / 1000, 2),
      p50: round(percentile(naiveTimes, 50)),
      p99: round(percentile(naiveTimes, 99)),
      hitRate: hitRate(naiveRanks),
    },
    mcp,
  };
}

const results = [];
for (const [i, steps] of sizes.entries()) {
  results.push(await benchSize(steps, !values['no-mcp'] && i === sizes.length - 1));
  log(JSON.stringify(results.at(-1)));
}
writeFileSync(
  join(OUT, 'results.json'),
  `${JSON.stringify({ at: new Date().toISOString(), node: process.version, results }, null, 2)}\n`,
);

const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
const lines = [
  row([
    'steps',
    'sessions',
    'corpus MB',
    'index s',
    'MB/s (goal ≥ 30)',
    'peak RSS MB (goal ≤ 300)',
    'DB MB',
    're-run ms (goal ≤ 50)',
    'question p50/p99 ms (goal ≤ 5/25)',
    'keyword p50/p99 ms',
    'naive AND p50/p99 ms',
  ]),
  row(Array(11).fill('---')),
  ...results.map((r) =>
    row([
      r.steps,
      r.sessions,
      r.corpusMB,
      r.index.seconds,
      r.index.mbPerSec,
      r.index.maxRssMB,
      r.index.dbMB,
      `${r.rerun.p50ms} (CLI ${r.rerun.cliMs})`,
      `${r.search.question.p50} / ${r.search.question.p99}`,
      `${r.search.keyword.p50} / ${r.search.keyword.p99}`,
      `${r.naive.p50} / ${r.naive.p99}`,
    ]),
  ),
  '',
  row([
    'steps',
    'questions',
    'Tapedeck hit@1',
    'hit@5',
    'hit@10',
    'no hit',
    'naive AND hit@1',
    'hit@5',
    'hit@10',
    'no hit',
  ]),
  row(Array(10).fill('---')),
  ...results.map((r) =>
    row([
      r.steps,
      r.search.hitRate.n,
      r.search.hitRate.at1,
      r.search.hitRate.at5,
      r.search.hitRate.at10,
      r.search.hitRate.none,
      r.naive.hitRate.at1,
      r.naive.hitRate.at5,
      r.naive.hitRate.at10,
      r.naive.hitRate.none,
    ]),
  ),
];
const last = results.at(-1);
if (last?.mcp)
  lines.push(
    '',
    `MCP search round trip over stdio at ${last.steps} steps: p50 ${last.mcp.p50} ms, p99 ${last.mcp.p99} ms (${last.mcp.calls} calls)`,
  );
process.stdout.write(`${lines.join('\n')}\n`);
