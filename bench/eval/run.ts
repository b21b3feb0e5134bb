/**
 * `npm run eval`: generate the eval corpus into a temp home, index it with the real CLI, and run
 * `tapedeck eval --compare` on every set; prints a table per kind (markdown with --markdown, one
 * JSON document with --json). For the shipped seed it first checks that the generator still
 * produces eval/sets/*.jsonl byte for byte (`--write-sets` rewrites them).
 *
 * Then the held-out sets (eval/handwritten, and eval/handwritten2 in Codex, Gemini CLI and Antigravity
 * formats: transcripts and questions written by hand, blind to the generator and the expansion
 * table), each in its own home and store, printed after the generated sets.
 *
 *   npm run eval [-- --seed S] [--db postgres://…] [--background N] [--markdown|--json [--details]] [--write-sets] [--keep] [--no-expand] [--embed]
 *
 * `--no-expand` scores Tapedeck without query expansion (what the related words add). `--embed` runs
 * `tapedeck embed` on every store first, so Tapedeck also weighs closeness in meaning (the generated
 * corpus takes ~10 minutes to embed; the hand-written sets ~20 s).
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import type { EvalReport, System } from '../../src/app/eval.js';
import type { Metrics } from '../../src/core/scorecard.js';
import { connectPgSync } from '../../src/storage/postgres/sync-client.js';
import { generateEvalCorpus, KINDS, SHIPPED_SEED } from './generate.js';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'tapedeck.js');
const SHIPPED = join(ROOT, 'eval', 'sets');
const HANDWRITTEN = join(ROOT, 'eval', 'handwritten');
// the second held-out set: other agents' formats (Codex, Gemini CLI, Antigravity), also written by hand
const HANDWRITTEN2 = join(ROOT, 'eval', 'handwritten2');
const LABEL: Record<System, string> = { tapedeck: 'Tapedeck', bm25_or: 'BM25-OR', and: 'AND' };

function cli(args: string[], env: Record<string, string>): string {
  const r = spawnSync(process.execPath, [BIN, ...args], { env, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`tapedeck ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return r.stdout;
}

/** A fresh schema on the named server, and a function that drops it. */
function pgSchema(url: string): { url: string; drop(): void } {
  const schema = `eval_${process.pid}_${randomBytes(4).toString('hex')}`;
  const u = new URL(url);
  u.searchParams.set('schema', schema);
  return {
    url: u.toString(),
    drop() {
      const pg = connectPgSync(url);
      try {
        pg.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        pg.close();
      }
    },
  };
}

const f3 = (x: number) => x.toFixed(3);

type Rows = [string, Partial<Record<System, Metrics>>][];

/** The per-kind rows of a report, then the overall row. */
const rowsOf = (r: EvalReport): Rows => [...Object.entries(r.kinds), ['overall', r.overall]];

function markdown(r: EvalReport): string {
  const lines = [
    '| set | n | system | hit@1 | hit@5 | hit@10 | recall@10 | session@1 | MRR | p50 ms | p99 ms |',
    '|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const [kind, bySystem] of rowsOf(r))
    r.systems.forEach((s, i) => {
      const m = bySystem[s] as Metrics;
      const name = s === 'tapedeck' ? `**${LABEL[s]}**` : LABEL[s];
      lines.push(
        `| ${i === 0 ? kind : ''} | ${i === 0 ? m.questions : ''} | ${name} | ${f3(m.hit_at_1)} | ${f3(m.hit_at_5)} | ${f3(m.hit_at_10)} | ${f3(m.recall_at_10)} | ${f3(m.session_hit_at_1)} | ${f3(m.mrr)} | ${m.p50_ms.toFixed(2)} | ${m.p99_ms.toFixed(2)} |`,
      );
    });
  return lines.join('\n');
}

function plain(r: EvalReport): string {
  const w = Math.max(13, ...Object.keys(r.kinds).map((k) => k.length));
  const head = `${'set'.padEnd(w)} ${'n'.padStart(3)}  ${'system'.padEnd(9)} ${['hit@1', 'hit@5', 'hit@10', 'rec@10', 'sess@1', 'MRR', 'p50ms', 'p99ms'].map((c) => c.padStart(7)).join(' ')}`;
  const lines = [head, '-'.repeat(head.length)];
  for (const [kind, bySystem] of rowsOf(r))
    r.systems.forEach((s, i) => {
      const m = bySystem[s] as Metrics;
      const cells = [m.hit_at_1, m.hit_at_5, m.hit_at_10, m.recall_at_10, m.session_hit_at_1, m.mrr].map(f3);
      cells.push(m.p50_ms.toFixed(2), m.p99_ms.toFixed(2));
      lines.push(
        `${(i === 0 ? kind : '').padEnd(w)} ${(i === 0 ? String(m.questions) : '').padStart(3)}  ${LABEL[s].padEnd(9)} ${cells.map((c) => c.padStart(7)).join(' ')}`,
      );
    });
  return lines.join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seed: { type: 'string' },
      db: { type: 'string' },
      background: { type: 'string' },
      markdown: { type: 'boolean' },
      json: { type: 'boolean' },
      details: { type: 'boolean' },
      'write-sets': { type: 'boolean' },
      keep: { type: 'boolean' },
      'no-expand': { type: 'boolean' },
      embed: { type: 'boolean' },
    },
  });
  const noExpand = values['no-expand'] ? ['--no-expand'] : [];
  const seed = values.seed === undefined ? SHIPPED_SEED : Number(values.seed);
  const started = performance.now();
  const tmp = mkdtempSync(join(tmpdir(), 'tapedeck-eval-run-'));
  const pg = values.db ? pgSchema(values.db) : null;
  try {
    const home = join(tmp, 'home');
    const sets = join(tmp, 'sets');
    const summary = await generateEvalCorpus({
      out: home,
      sets,
      seed,
      background: values.background === undefined ? undefined : Number(values.background),
    });
    if (seed === SHIPPED_SEED && summary.background === 20_000) {
      if (values['write-sets']) {
        mkdirSync(SHIPPED, { recursive: true });
        for (const k of KINDS) copyFileSync(summary.sets[k], join(SHIPPED, `${k}.jsonl`));
        process.stderr.write(`wrote ${KINDS.length} sets to ${SHIPPED}\n`);
      } else
        for (const k of KINDS) {
          const shipped = readFileSync(join(SHIPPED, `${k}.jsonl`), 'utf8');
          if (shipped !== readFileSync(summary.sets[k], 'utf8'))
            throw new Error(
              `eval/sets/${k}.jsonl no longer matches the generator; run \`npm run eval -- --write-sets\` and commit`,
            );
        }
    }
    const env: Record<string, string> = {
      HOME: home,
      TAPEDECK_HOME: join(tmp, 'tapedeck'),
      PATH: process.env.PATH ?? '',
      ...(pg ? { TAPEDECK_DATABASE_URL: pg.url } : {}),
    };
    const t0 = performance.now();
    cli(['index', '--json'], env);
    const indexed = (performance.now() - t0) / 1000;
    // Meaning vectors for every step worth one (slow: ~25-40 steps a second).
    if (values.embed) cli(['embed', '--json'], env);
    // One run over every set: the baselines' index is built once, and each set is its own kind.
    const all = join(tmp, 'all.jsonl');
    writeFileSync(all, KINDS.map((k) => readFileSync(summary.sets[k], 'utf8')).join(''));
    const report = JSON.parse(
      cli(
        [
          'eval',
          all,
          '--compare',
          '--json',
          '--no-index',
          ...noExpand,
          ...(values.details ? ['--details'] : []),
        ],
        env,
      ),
    ) as EvalReport;
    const heldFlags = [...noExpand, ...(values.details ? ['--details'] : [])];
    const held = heldOut(tmp, values.db, heldFlags, HANDWRITTEN, !!values.embed);
    const held2 = heldOut(tmp, values.db, heldFlags, HANDWRITTEN2, !!values.embed);
    const secs = (performance.now() - started) / 1000;
    process.stderr.write(
      `eval: seed ${seed}, ${report.questions} questions over ${report.steps} steps on ${report.backend}, indexed in ${indexed.toFixed(1)} s, total ${secs.toFixed(1)} s${values.keep ? `, kept in ${tmp}${pg ? ` and ${pg.url}` : ''}` : ''}\n`,
    );
    if (values.json)
      process.stdout.write(
        `${JSON.stringify({ seed, ...report, handwritten: held, handwritten2: held2 }, null, 2)}\n`,
      );
    else {
      const table = values.markdown ? markdown : plain;
      process.stdout.write(
        `${table(report)}\n\nheld-out, hand-written (eval/handwritten, ${held.questions} questions over ${held.steps} steps):\n${table(held)}\n` +
          `\nheld-out, hand-written in other agents' formats (eval/handwritten2, ${held2.questions} questions over ${held2.steps} steps):\n${table(held2)}\n`,
      );
    }
  } finally {
    if (!values.keep) pg?.drop();
    if (!values.keep) rmSync(tmp, { recursive: true, force: true });
  }
}

/** A hand-written held-out set, indexed from a copy of its home into its own store (a fresh schema on PostgreSQL). */
function heldOut(
  tmp: string,
  db: string | undefined,
  flags: string[],
  dir: string,
  embed: boolean,
): EvalReport {
  const name = basename(dir);
  const home = join(tmp, `${name}-home`);
  cpSync(join(dir, 'home'), home, { recursive: true });
  const pg = db ? pgSchema(db) : null;
  try {
    const env: Record<string, string> = {
      HOME: home,
      TAPEDECK_HOME: join(tmp, `${name}-tapedeck`),
      PATH: process.env.PATH ?? '',
      ...(pg ? { TAPEDECK_DATABASE_URL: pg.url } : {}),
    };
    const file = join(dir, 'questions.jsonl');
    if (embed) {
      cli(['index', '--json'], env);
      cli(['embed', '--json'], env);
    }
    return JSON.parse(cli(['eval', file, '--compare', '--json', ...flags], env)) as EvalReport;
  } finally {
    pg?.drop();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
});
