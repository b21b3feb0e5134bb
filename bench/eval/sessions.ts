/**
 * Why the right session is not first: over a kept eval store (`npm run eval -- --keep`), for each
 * question whose first hit is in another session, the score parts of that first hit beside the
 * best hit of the right session, and which part loses it (the part whose difference is most in
 * the wrong session's favour). Also how the two sessions' matches differ: distinct question words
 * the right session holds between its steps vs the winner's (coverage), and how many of their
 * candidate steps matched. Runs the shipped search path in process, on the source tree.
 *
 *   node --import tsx bench/eval/sessions.ts <kept-dir> [--kinds conversation] [--held handwritten|handwritten2] [--list]
 * (--list: one line a lost question, on stderr)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../src/app/config.js';
import { createEngine } from '../../src/app/engine.js';
import { type EvidenceRef, parseQuestionFile, pathMatches } from '../../src/core/scorecard.js';
import { type SearchHit, searchTranscripts } from '../../src/search/search.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    kinds: { type: 'string', default: 'conversation' },
    held: { type: 'string' },
    list: { type: 'boolean', default: false },
  },
});
const dir = positionals[0];
if (!dir) {
  process.stderr.write(
    'usage: sessions.ts <kept-dir> [--kinds a,b] [--held handwritten|handwritten2] [--list]\n',
  );
  process.exit(2);
}
const held = values.held;
const home = join(dir, held ? `${held}-home` : 'home');
const tapedeckHome = join(dir, held ? `${held}-tapedeck` : 'tapedeck');
const engine = createEngine(
  loadConfig({ db: join(tapedeckHome, 'tapedeck.db') }, { HOME: home, TAPEDECK_HOME: tapedeckHome }),
);
const file = held
  ? join(import.meta.dirname, '..', '..', 'eval', held, 'questions.jsonl')
  : join(dir, 'all.jsonl');
const kinds = held ? null : values.kinds.split(',');
const questions = parseQuestionFile(readFileSync(file, 'utf8')).filter(
  (q) => !kinds || kinds.includes(q.kind),
);

const inSession = (h: SearchHit, e: EvidenceRef) =>
  'file' in e ? pathMatches(h.source.path, e.file) : h.thread === e.thread;

const loser = new Map<string, number>();
let n = 0;
let first = 0;
let absent = 0;
const sums = { rightCov: 0, wrongCov: 0, rightSteps: 0, wrongSteps: 0, gap: 0 };
for (const q of questions) {
  n++;
  const r = searchTranscripts(engine.store, q.question, {
    limit: 100,
    explain: true,
    by: 'step',
    ...(q.now !== undefined ? { now: q.now } : {}),
    ...(q.project ? { project: q.project } : {}),
  });
  const top = r.hits[0];
  if (!top) continue;
  if (q.evidence.some((e) => inSession(top, e))) {
    first++;
    continue;
  }
  const right = r.hits.find((h) => q.evidence.some((e) => inSession(h, e)));
  if (!right) {
    absent++;
    continue;
  }
  const a = top.explain!;
  const b = right.explain!;
  let worst = '';
  let most = 0;
  for (const k of Object.keys(a) as (keyof typeof a)[]) {
    const d = a[k] - b[k];
    if (d > most) [worst, most] = [k, d];
  }
  loser.set(worst, (loser.get(worst) ?? 0) + 1);
  const steps = (t: string) => r.hits.filter((h) => h.thread === t).length;
  sums.rightSteps += steps(right.thread);
  sums.wrongSteps += steps(top.thread);
  sums.gap += top.score - right.score;
  if (values.list)
    process.stderr.write(
      `${q.id} "${q.question}" lost by ${worst} (+${most.toFixed(3)}); gap ${(top.score - right.score).toFixed(3)}\n  first: ${JSON.stringify(a)} ${top.snippet.slice(0, 90)}\n  right: ${JSON.stringify(b)} ${right.snippet.slice(0, 90)}\n`,
    );
}
const lost = n - first - absent;
process.stdout.write(
  `${n} questions: right session first ${first}, in the top 100 but not first ${lost}, not in the top 100 ${absent}\n`,
);
process.stdout.write(
  `lost by (the part most in the first hit's favour): ${[...loser]
    .sort((x, y) => y[1] - x[1])
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')}\n`,
);
if (lost > 0)
  process.stdout.write(
    `mean score gap ${(sums.gap / lost).toFixed(3)}; hits in the top 100 from the winner ${(sums.wrongSteps / lost).toFixed(1)} vs the right session ${(sums.rightSteps / lost).toFixed(1)}\n`,
  );
engine.close();
