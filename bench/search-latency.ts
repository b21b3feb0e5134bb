/**
 * In-process transcript search latency on SQLite: indexes a generated corpus once into a kept
 * store, then times every planted question (question and keyword kinds apart) through
 * engine.transcripts.search, after one warming pass. Prints p50/p99 per kind, session and file
 * hit@10, and writes each question's top 10 to `--out` (to compare two runs' rankings). Beside
 * each search, interleaved, the same-run baseline: plain FTS5 BM25 over the question's words
 * OR-ed (core/scorecard.ts's baseline words), top 10 with their texts, on the same store through
 * a read-only connection — the machine is shared and noisy, so compare the ratio.
 *
 * With `--base <repo root> --base-db <file>` the same questions also go, interleaved question by
 * question (which side goes first alternates), to the engine of another checkout's build (its
 * dist/, e.g. main at this branch's base built into a temp folder) on its own copy of the store:
 * CPU p50/p99 of both and their ratio, and how many questions keep the same top 10. This
 * checkout's engine then comes from its dist/ too (build first).
 *
 *   node --import tsx bench/search-latency.ts --corpus <dir> --db <file> [--passes 3] [--out f.json]
 *     [--skip-baseline] (at 1M steps the baseline takes ~1 s a question) [--base <root> --base-db <file>]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { loadConfig } from '../src/app/config.js';
import { createEngine } from '../src/app/engine.js';
import { baselineWords } from '../src/core/scorecard.js';
import type { QuestionRecord } from './generate.js';
import { percentile, round } from './stats.js';

const { values } = parseArgs({
  options: {
    corpus: { type: 'string' },
    db: { type: 'string' },
    passes: { type: 'string', default: '3' },
    out: { type: 'string' },
    'skip-baseline': { type: 'boolean', default: false },
    base: { type: 'string' },
    'base-db': { type: 'string' },
  },
});
if (!values.corpus || !values.db || (values.base && !values['base-db'])) {
  process.stderr.write('usage: search-latency.ts --corpus <dir> --db <file>\n');
  process.exit(2);
}
const questions = readFileSync(join(values.corpus, 'questions.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as QuestionRecord);
/** A checkout's engine from its build (dist/), on `db`. */
async function builtEngine(root: string, db: string): Promise<ReturnType<typeof createEngine>> {
  const config = await import(join(root, 'dist', 'app', 'config.js'));
  const eng = await import(join(root, 'dist', 'app', 'engine.js'));
  return eng.createEngine(config.loadConfig({ db }, { HOME: values.corpus }));
}
// Against another build, this checkout's engine is its build too (npm run build first): both
// sides then run tsc's output, not one of them tsx's.
const engine = values.base
  ? await builtEngine(join(import.meta.dirname, '..'), values.db)
  : createEngine(loadConfig({ db: values.db }, { HOME: values.corpus }));
const t0 = performance.now();
const summary = engine.transcripts.index();
process.stderr.write(
  `[search-latency] indexed ${summary.steps.written} new steps in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`,
);
type Search = (q: string) => Promise<string[]>;
/** The other checkout's engine (its build), on its own store copy, brought up to date first. */
async function baseEngine(root: string, db: string): Promise<{ search: Search; close(): void }> {
  const e = await builtEngine(root, db);
  e.transcripts.index();
  return {
    // await: a base build from before search was async returns the result itself.
    search: async (q) =>
      (await e.transcripts.search(q, { limit: 10 })).hits.map((x) => `${x.thread}#${x.step}`),
    close: () => e.close(),
  };
}
const other = values.base ? await baseEngine(values.base, values['base-db']!) : null;
const otherCpu: Record<string, number[]> = {};
const otherTop: string[][] = [];
const plain = new Database(values.db, { readonly: true });
const bm25Or = plain.prepare(
  `SELECT s.id, s.step, s.text, t.id AS thread FROM steps_fts f JOIN steps s ON s.id = f.rowid
   JOIN threads t ON t.tid = s.tid WHERE steps_fts MATCH ? ORDER BY bm25(steps_fts) LIMIT 10`,
);
const baseline = (question: string) => {
  const words = baselineWords(question);
  return words.length ? bm25Or.all(words.map((w) => `"${w.replace(/"/g, '""')}"`).join(' OR ')) : [];
};
const times: Record<string, number[]> = {};
const base: Record<string, number[]> = {};
const cpu: Record<string, number[]> = {};
const hits: Record<string, { file: number; session: number; n: number }> = {};
const top: string[][] = [];
const passes = Math.max(2, Number(values.passes));
for (let pass = 0; pass < passes; pass++)
  for (const [i, q] of questions.entries()) {
    // The other build's search, before or after this one's (alternating), timed alike.
    const timeOther = async () => {
      if (!other) return;
      const o0 = process.cpuUsage();
      const top10 = await other.search(q.question);
      const o = process.cpuUsage(o0);
      otherCpu[q.kind] ??= [];
      if (pass === 0) otherTop.push(top10);
      else otherCpu[q.kind]!.push((o.user + o.system) / 1000);
    };
    if ((pass + i) % 2) await timeOther();
    const c0 = process.cpuUsage();
    const s = performance.now();
    const r = await engine.transcripts.search(q.question, { limit: 10 });
    const ms = performance.now() - s;
    const c = process.cpuUsage(c0);
    if ((pass + i) % 2 === 0) await timeOther();
    const b0 = performance.now();
    if (!values['skip-baseline']) baseline(q.question);
    const bms = performance.now() - b0;
    if (pass === 0) {
      hits[q.kind] ??= { file: 0, session: 0, n: 0 };
      const h = hits[q.kind]!;
      h.n++;
      if (r.hits.some((x) => x.source.path === q.file)) h.file++;
      if (r.hits.some((x) => x.thread.endsWith(q.sessionId))) h.session++;
      top.push(r.hits.map((x) => `${x.thread}#${x.step}`));
      continue;
    }
    times[q.kind] ??= [];
    cpu[q.kind] ??= [];
    base[q.kind] ??= [];
    base[q.kind]!.push(bms);
    times[q.kind]!.push(ms);
    cpu[q.kind]!.push((c.user + c.system) / 1000);
  }
for (const kind of Object.keys(times)) {
  const t = times[kind]!;
  const h = hits[kind]!;
  const b = base[kind]!;
  const ratio = (q: number) => round(percentile(t, q) / percentile(b, q));
  const vs = values['skip-baseline']
    ? ''
    : ` | BM25-OR p50 ${round(percentile(b, 50))} ms p99 ${round(percentile(b, 99))} ms (ratio p50 ${ratio(50)}, p99 ${ratio(99)})`;
  process.stdout.write(
    `${kind}: n=${h.n} p50 ${round(percentile(t, 50))} ms p99 ${round(percentile(t, 99))} ms cpu p50 ${round(percentile(cpu[kind]!, 50))} ms${vs} | file hit@10 ${h.file}/${h.n} session hit@10 ${h.session}/${h.n}\n`,
  );
}
if (other) {
  for (const kind of Object.keys(otherCpu)) {
    const [a, b] = [cpu[kind]!, otherCpu[kind]!];
    const p = (t: number[], q: number) => round(percentile(t, q));
    process.stdout.write(
      `${kind}: CPU p50 base ${p(b, 50)} -> this ${p(a, 50)} ms (ratio ${round(percentile(a, 50) / percentile(b, 50))}), p99 base ${p(b, 99)} -> this ${p(a, 99)} ms (ratio ${round(percentile(a, 99) / percentile(b, 99))})\n`,
    );
  }
  const same = top.filter((t, i) => t.join() === otherTop[i]!.join()).length;
  process.stdout.write(`same top 10 as base: ${same}/${top.length}\n`);
  other.close();
}
if (values.out) writeFileSync(values.out, JSON.stringify(top));
plain.close();
engine.close();
