/**
 * Search CPU per question of this tree against another checkout's (`--base`, e.g. /work/main),
 * interleaved question by question in one process over a kept eval store (`npm run eval --
 * --keep`), per kind: the machine is shared, so the ratio is the figure. Both run their own
 * source (through tsx) over the same SQLite file, each question asked on its set's date.
 *
 *   node --import tsx bench/eval/ab-cpu.ts <kept-dir> --base /work/main [--passes 2] [--every 2]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    base: { type: 'string' },
    passes: { type: 'string', default: '2' },
    every: { type: 'string', default: '1' },
  },
});
const dir = positionals[0];
if (!dir || !values.base) {
  process.stderr.write('usage: ab-cpu.ts <kept-eval-dir> --base <checkout> [--passes N] [--every N]\n');
  process.exit(2);
}
type Search = (store: unknown, q: string, o: object) => unknown;
async function load(root: string): Promise<{ search: Search; store: unknown }> {
  const { searchTranscripts } = await import(join(root, 'src/search/search.ts'));
  const { openDatabase } = await import(join(root, 'src/storage/sqlite/open.ts'));
  const { createSqliteTranscriptStore } = await import(join(root, 'src/storage/sqlite/transcript-store.ts'));
  const path = join(dir, 'tapedeck', 'tapedeck.db');
  return { search: searchTranscripts, store: createSqliteTranscriptStore(openDatabase(path), path) };
}
const mine = await load(join(import.meta.dirname, '..', '..'));
const base = await load(values.base);
const questions = readFileSync(join(dir, 'all.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as { kind: string; question: string; date?: string })
  .filter((_, i) => i % Math.max(1, Number(values.every)) === 0);
const time = (s: typeof mine, q: (typeof questions)[number]) => {
  const now = q.date ? Date.parse(`${q.date}T12:00:00Z`) : Date.now();
  const c0 = process.cpuUsage();
  s.search(s.store, q.question, { limit: 10, now });
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
};
for (const q of questions) {
  time(mine, q);
  time(base, q);
}
const rows: Record<string, { mine: number; base: number; n: number }> = {};
for (let p = 0; p < Math.max(1, Number(values.passes)); p++)
  questions.forEach((q, i) => {
    rows[q.kind] ??= { mine: 0, base: 0, n: 0 };
    const r = rows[q.kind]!;
    // Alternate which goes first so neither always meets the other's warm cache.
    if ((i + p) % 2) {
      r.base += time(base, q);
      r.mine += time(mine, q);
    } else {
      r.mine += time(mine, q);
      r.base += time(base, q);
    }
    r.n++;
  });
let tm = 0;
let tb = 0;
process.stdout.write(
  '| kind | questions × passes | base ms | this tree ms | ratio |\n|---|---:|---:|---:|---:|\n',
);
for (const [k, r] of Object.entries(rows)) {
  tm += r.mine;
  tb += r.base;
  process.stdout.write(
    `| ${k} | ${r.n} | ${(r.base / r.n).toFixed(2)} | ${(r.mine / r.n).toFixed(2)} | ${(r.mine / r.base).toFixed(3)} |\n`,
  );
}
process.stdout.write(
  `| all | | ${tb.toFixed(0)} total | ${tm.toFixed(0)} total | ${(tm / tb).toFixed(3)} |\n`,
);
