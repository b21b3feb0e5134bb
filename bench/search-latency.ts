/**
 * In-process transcript search latency on SQLite: indexes a generated corpus once into a kept
 * store, then times every planted question (question and keyword kinds apart) through
 * engine.transcripts.search, after one warming pass. Prints p50/p99 per kind, session and file
 * hit@10, and writes each question's top 10 to `--out` (to compare two runs' rankings).
 *
 *   node --import tsx bench/search-latency.ts --corpus <dir> --db <file> [--passes 3] [--out f.json]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/app/config.js';
import { createEngine } from '../src/app/engine.js';
import type { QuestionRecord } from './generate.js';
import { percentile, round } from './stats.js';

const { values } = parseArgs({
  options: {
    corpus: { type: 'string' },
    db: { type: 'string' },
    passes: { type: 'string', default: '3' },
    out: { type: 'string' },
  },
});
if (!values.corpus || !values.db) {
  process.stderr.write('usage: search-latency.ts --corpus <dir> --db <file>\n');
  process.exit(2);
}
const questions = readFileSync(join(values.corpus, 'questions.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as QuestionRecord);
const engine = createEngine(loadConfig({ db: values.db }, { HOME: values.corpus }));
const t0 = performance.now();
const summary = engine.transcripts.index();
process.stderr.write(
  `[search-latency] indexed ${summary.steps.written} new steps in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`,
);
const times: Record<string, number[]> = {};
const cpu: Record<string, number[]> = {};
const hits: Record<string, { file: number; session: number; n: number }> = {};
const top: string[][] = [];
const passes = Math.max(2, Number(values.passes));
for (let pass = 0; pass < passes; pass++)
  for (const q of questions) {
    const c0 = process.cpuUsage();
    const s = performance.now();
    const r = engine.transcripts.search(q.question, { limit: 10 });
    const ms = performance.now() - s;
    const c = process.cpuUsage(c0);
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
    times[q.kind]!.push(ms);
    cpu[q.kind]!.push((c.user + c.system) / 1000);
  }
for (const kind of Object.keys(times)) {
  const t = times[kind]!;
  const h = hits[kind]!;
  process.stdout.write(
    `${kind}: n=${h.n} p50 ${round(percentile(t, 50))} ms p99 ${round(percentile(t, 99))} ms cpu p50 ${round(percentile(cpu[kind]!, 50))} ms | file hit@10 ${h.file}/${h.n} session hit@10 ${h.session}/${h.n}\n`,
  );
}
if (values.out) writeFileSync(values.out, JSON.stringify(top));
engine.close();
