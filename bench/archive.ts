/**
 * What the transcript archive costs (issue 11 §1): full-index time with the archive off and on,
 * alternated in fresh processes and fresh homes over the same corpus (the machine is shared, so
 * the ratio is the figure), the archive's size beside the corpus, and an incremental pass after
 * appends to many files (the common case: sessions growing).
 *
 *   npm run build && node --import tsx bench/archive.ts [--steps 10000] [--runs 3]
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/app/config.js';
import { createEngine } from '../src/app/engine.js';
import { generateCorpus } from './generate.js';
import { percentile, round } from './stats.js';

const ROOT = join(import.meta.dirname, '..');
const { values } = parseArgs({
  options: { steps: { type: 'string', default: '10000' }, runs: { type: 'string', default: '3' } },
});
const steps = Number(values.steps);
const runs = Number(values.runs);
const log = (m: string) => process.stderr.write(`[bench archive] ${m}\n`);

const corpus = join(ROOT, 'bench', '.data', `corpus-${steps}-s1`);
if (!existsSync(join(corpus, 'manifest.json'))) {
  log(`generating ${steps} steps…`);
  await generateCorpus({ out: corpus, steps, seed: 1 });
}
const transcripts = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((d) => d.isFile() && /\.jsonl?$/.test(d.name) && !d.parentPath.includes('.tapedeck'))
    .map((d) => join(d.parentPath, d.name));
const corpusBytes = transcripts(corpus).reduce((n, f) => n + statSync(f).size, 0);

function fullIndex(archive: boolean): { ms: number; archiveBytes: number } {
  const home = mkdtempSync(join(tmpdir(), 'tapedeck-bench-archive-'));
  try {
    const child = spawnSync(
      process.execPath,
      [join(ROOT, 'bench', 'index-child.mjs'), corpus, join(home, 'tapedeck.db')],
      {
        encoding: 'utf8',
        env: { ...process.env, TAPEDECK_HOME: home, TAPEDECK_ARCHIVE: archive ? '1' : '0' },
      },
    );
    if (child.status !== 0) throw new Error(child.stderr);
    const { ms } = JSON.parse(child.stdout.trim().split('\n').at(-1)!);
    const e = createEngine(loadConfig({}, { HOME: corpus, TAPEDECK_HOME: home }));
    const archiveBytes = e.archive?.stats().bytes ?? 0;
    e.close();
    return { ms, archiveBytes: archive ? archiveBytes : 0 };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

const off: number[] = [];
const on: number[] = [];
let archiveBytes = 0;
for (let i = 0; i < runs; i++) {
  off.push(fullIndex(false).ms);
  const r = fullIndex(true);
  on.push(r.ms);
  archiveBytes = r.archiveBytes;
  log(`run ${i + 1}: off ${round(off.at(-1)!)} ms, on ${round(r.ms)} ms`);
}

// Growth: a copy of the corpus indexed once, then one line appended to each of 100 files, indexed
// again — with the archive off and on.
function growth(archive: boolean): number {
  const home = mkdtempSync(join(tmpdir(), 'tapedeck-bench-grow-'));
  const copy = join(home, 'corpus');
  spawnSync('cp', ['-r', corpus, copy]);
  const env = { HOME: copy, TAPEDECK_HOME: join(home, 'td'), TAPEDECK_ARCHIVE: archive ? '1' : '0' };
  try {
    const e = createEngine(loadConfig({}, env));
    e.transcripts.index();
    const files = transcripts(copy)
      .filter((f) => f.endsWith('.jsonl'))
      .slice(0, 100);
    for (const f of files) appendFileSync(f, '{"type":"noise"}\n');
    const t = performance.now();
    e.transcripts.index();
    const ms = performance.now() - t;
    e.close();
    return ms;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
const growOff: number[] = [];
const growOn: number[] = [];
for (let i = 0; i < runs; i++) {
  growOff.push(growth(false));
  growOn.push(growth(true));
}

const p50 = (a: number[]) => percentile(a, 50);
const result = {
  steps,
  corpusMB: round(corpusBytes / 1048576),
  fullIndexOffMs: round(p50(off)),
  fullIndexOnMs: round(p50(on)),
  fullIndexRatio: round(p50(on) / p50(off)),
  archiveMB: round(archiveBytes / 1048576),
  archiveShare: round(archiveBytes / corpusBytes),
  grow100OffMs: round(p50(growOff)),
  grow100OnMs: round(p50(growOn)),
  growRatio: round(p50(growOn) / p50(growOff)),
};
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
