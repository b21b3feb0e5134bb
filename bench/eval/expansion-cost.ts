/**
 * Search CPU per question with and without query expansion (search/expansion.ts), interleaved
 * on one kept eval store (`npm run eval -- --keep` prints its directory), per kind: the machine
 * is shared, so the ratio is the figure. In process, through searchTranscripts, each question
 * asked on its set's date.
 *
 *   node --import tsx bench/eval/expansion-cost.ts <kept-dir> [--passes 3] [--every N (every Nth question)]
 *
 * The index caches the counts it takes, as a long-running server's does; a one-question CLI
 * process is bench/cli.ts's.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { searchTranscripts } from '../../src/search/search.js';
import { openDatabase } from '../../src/storage/sqlite/open.js';
import { createSqliteTranscriptStore } from '../../src/storage/sqlite/transcript-store.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    passes: { type: 'string', default: '3' },
    every: { type: 'string', default: '1' },
  },
});
const dir = positionals[0];
if (!dir) {
  process.stderr.write('usage: expansion-cost.ts <kept-eval-dir> [--passes N]\n');
  process.exit(2);
}
const path = join(dir, 'tapedeck', 'tapedeck.db');
const store = createSqliteTranscriptStore(openDatabase(path), path);
const questions = readFileSync(join(dir, 'all.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as { kind: string; question: string; date?: string })
  .filter((_, i) => i % Math.max(1, Number(values.every)) === 0);
const cpu: Record<string, { on: number; off: number; n: number }> = {};
const time = (q: (typeof questions)[number], expand: boolean) => {
  const now = q.date ? Date.parse(`${q.date}T12:00:00Z`) : Date.now();
  const c0 = process.cpuUsage();
  searchTranscripts(store, q.question, { limit: 10, now, expand });
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
};
for (const q of questions) time(q, true); // warm caches (statements, term counts)
const passes = Math.max(1, Number(values.passes));
for (let p = 0; p < passes; p++)
  for (const q of questions) {
    cpu[q.kind] ??= { on: 0, off: 0, n: 0 };
    const row = cpu[q.kind]!;
    // Alternate which goes first so neither always meets the other's warm cache.
    if (p % 2) {
      row.off += time(q, false);
      row.on += time(q, true);
    } else {
      row.on += time(q, true);
      row.off += time(q, false);
    }
    row.n++;
  }
const total = { on: 0, off: 0, n: 0 };
process.stdout.write('kind           n   CPU ms/question off → on   ratio\n');
for (const [k, r] of Object.entries(cpu)) {
  total.on += r.on;
  total.off += r.off;
  total.n += r.n;
  process.stdout.write(
    `${k.padEnd(14)}${String(r.n / passes).padStart(4)}   ${(r.off / r.n).toFixed(2).padStart(6)} → ${(r.on / r.n).toFixed(2).padStart(6)}   ${(r.on / r.off).toFixed(2)}×\n`,
  );
}
process.stdout.write(
  `${'overall'.padEnd(14)}${String(total.n / passes).padStart(4)}   ${(total.off / total.n).toFixed(2).padStart(6)} → ${(total.on / total.n).toFixed(2).padStart(6)}   ${(total.on / total.off).toFixed(2)}×\n`,
);
