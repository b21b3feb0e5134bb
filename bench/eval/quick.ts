/**
 * The scorecard in process over a kept eval store (`npm run eval -- --keep` prints where it is),
 * Tapedeck only, on the source tree (no build): for ablations and weight sweeps between full
 * `npm run eval` runs. `--set name=value,…` overrides ranking weights (search/weights.ts) for the
 * run; `--held handwritten` (or handwritten2) scores that held-out set over its kept store instead of the generated sets;
 * `--details FILE` writes each question's rank, first hit's thread and whether it is the right
 * session, to compare two runs question by question.
 *
 *   node --import tsx bench/eval/quick.ts <kept-dir> [--set reason=0,session=0.2] [--held handwritten|handwritten2] [--details out.json] [--db postgres://…?schema=… (a kept PostgreSQL store)] [--no-meaning (words alone: no question vector, no nearest steps)]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../src/app/config.js';
import { createEngine } from '../../src/app/engine.js';
import { createEngineEval } from '../../src/app/eval.js';
import { parseQuestionFile } from '../../src/core/scorecard.js';
import { WEIGHTS } from '../../src/search/weights.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    set: { type: 'string' },
    held: { type: 'string' },
    details: { type: 'string' },
    db: { type: 'string' },
    'no-meaning': { type: 'boolean', default: false },
  },
});
const dir = positionals[0];
if (!dir) {
  process.stderr.write(
    'usage: quick.ts <kept-dir> [--set name=value,…] [--held handwritten|handwritten2] [--details FILE]\n',
  );
  process.exit(2);
}
for (const kv of (values.set ?? '').split(',').filter(Boolean)) {
  const [k, v] = kv.split('=');
  if (!k || !(k in WEIGHTS) || Number.isNaN(Number(v))) throw new Error(`unknown weight or value: ${kv}`);
  (WEIGHTS as unknown as Record<string, number>)[k] = Number(v);
}
const held = values.held;
const home = join(dir, held ? `${held}-home` : 'home');
const tapedeckHome = join(dir, held ? `${held}-tapedeck` : 'tapedeck');
const engine = createEngine(
  loadConfig(
    { db: values.db ?? join(tapedeckHome, 'tapedeck.db') },
    { HOME: home, TAPEDECK_HOME: tapedeckHome },
  ),
);
const file = held
  ? join(import.meta.dirname, '..', '..', 'eval', held, 'questions.jsonl')
  : join(dir, 'all.jsonl');
const c0 = process.cpuUsage();
const report = await createEngineEval(engine).run(parseQuestionFile(readFileSync(file, 'utf8')), {
  details: Boolean(values.details),
  meaning: !values['no-meaning'],
});
const cpu = process.cpuUsage(c0);
const f3 = (x: number) => x.toFixed(3);
process.stdout.write(
  '| set | n | hit@1 | hit@5 | hit@10 | recall@10 | session@1 |\n|---|---:|---:|---:|---:|---:|---:|\n',
);
for (const [kind, m] of [...Object.entries(report.kinds), ['overall', report.overall] as const]) {
  const t = m.tapedeck!;
  process.stdout.write(
    `| ${kind} | ${t.questions} | ${f3(t.hit_at_1)} | ${f3(t.hit_at_5)} | ${f3(t.hit_at_10)} | ${f3(t.recall_at_10)} | ${f3(t.session_hit_at_1)} |\n`,
  );
}
process.stdout.write(
  `search CPU ${((cpu.user + cpu.system) / 1000 / report.questions).toFixed(2)} ms a question (whole run, in process); p50 ${report.overall.tapedeck!.p50_ms} ms\n`,
);
if (values.details) writeFileSync(values.details, JSON.stringify(report.details, null, 1));
engine.close();
