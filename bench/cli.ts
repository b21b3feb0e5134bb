/**
 * CLI wall time as a person feels it: `tapedeck --version` and `tapedeck search` started from the
 * shell, each a fresh process, beside a bare `node -e ''` started the same way, the cases
 * interleaved round by round so machine load hits them alike (goals: search ≤ 2×, --version ≤
 * 1.2× the bare node). Also the CPU time of each process (user + system, less load-sensitive
 * than wall time on a shared machine) and how many modules it loads.
 *
 *   npm run build && node --import tsx bench/cli.ts --home CORPUS_HOME --db STORE.db \
 *     [--baseline OLD/bin/tapedeck.js --baseline-db OLD_STORE.db] [--runs 25] [--query "…"] [--json]
 *
 * CORPUS_HOME is the $HOME holding the transcripts (a `bench/generate.ts` corpus) and STORE.db an
 * index of it; `search` refreshes the index first (one stat per transcript), as it does for a user.
 * The baseline (the build before a change) gets its own store: a newer schema is not for older code.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { percentile, round } from './stats.js';

const ROOT = join(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    home: { type: 'string' },
    db: { type: 'string' },
    baseline: { type: 'string' },
    'baseline-db': { type: 'string' },
    runs: { type: 'string', default: '25' },
    query: { type: 'string', default: 'why was the checkout webhook blocked by cors?' },
    json: { type: 'boolean', default: false },
  },
});
if (!values.home || !values.db) throw new Error('give --home CORPUS_HOME and --db STORE.db');
const RUNS = Number(values.runs);
const tmp = mkdtempSync(join(tmpdir(), 'tapedeck-bench-cli-'));

interface Case {
  name: string;
  args: string[];
  env?: Record<string, string>;
}

function cases(label: string, bin: string, db: string): Case[] {
  // The code cache (bin/load-bundle.js) in a folder of the run's own: the warm-up run writes it, as
  // a person's first search does.
  const env = {
    HOME: values.home!,
    TAPEDECK_HOME: join(tmp, label),
    TAPEDECK_DB: db,
    TAPEDECK_CODE_CACHE: join(tmp, `${label}-cache`),
  };
  return [
    { name: `${label}: tapedeck --version`, args: [bin, '--version'], env },
    { name: `${label}: tapedeck search`, args: [bin, 'search', values.query!], env },
    { name: `${label}: tapedeck search --no-index`, args: [bin, 'search', '--no-index', values.query!], env },
    {
      name: `${label}: search --no-index, no code cache`,
      args: [bin, 'search', '--no-index', values.query!],
      env: { ...env, TAPEDECK_CODE_CACHE: '0' },
    },
  ];
}

const all: Case[] = [
  { name: "node -e ''", args: ['-e', ''] },
  ...cases('new', join(ROOT, 'bin', 'tapedeck.js'), values.db),
  ...(values.baseline ? cases('baseline', values.baseline, values['baseline-db'] ?? values.db) : []),
];

/** Wall and CPU milliseconds of one run; the CPU time is read by the child at exit. */
function runOnce(c: Case): { wall: number; cpu: number } {
  const cpuFile = join(tmp, 'cpu');
  const t = performance.now();
  const r = spawnSync(process.execPath, ['--require', cpuHook, ...c.args], {
    env: { PATH: process.env.PATH ?? '', ...c.env, BENCH_CPU_FILE: cpuFile },
    encoding: 'utf8',
  });
  const wall = performance.now() - t;
  if (r.status !== 0) throw new Error(`${c.name}: exit ${r.status}: ${r.stderr}`);
  return { wall, cpu: Number(readFileSync(cpuFile, 'utf8')) };
}

// Preloaded into every child, the bare node included, so each pays the same: writes the process's
// CPU time when it exits. CommonJS on purpose: an ES module importing node:fs would add the cost
// of fs's ES facade to every case.
const cpuHook = join(tmp, 'cpu-hook.cjs');
writeFileSync(
  cpuHook,
  "process.on('exit', () => { const u = process.cpuUsage(); require('node:fs').writeFileSync(process.env.BENCH_CPU_FILE, String((u.user + u.system) / 1000)); });\n",
);
// Counts the files a process loads, CommonJS and ES modules alike (run once per case, untimed): an
// ES loader hook lists each module URL, and at exit the CommonJS cache is listed too.
const countHook = join(tmp, 'count-hook.mjs');
writeFileSync(
  countHook,
  "export async function load(url, c, next) { if (url.startsWith('file:')) process.stderr.write('MODULE ' + url + '\\n'); return next(url, c); }\n",
);
const countRegister = join(tmp, 'count-register.cjs');
writeFileSync(
  countRegister,
  `require('node:module').register(${JSON.stringify(pathToFileURL(countHook).href)});\n` +
    "process.on('exit', () => { for (const f of Object.keys(require.cache)) process.stderr.write('MODULE ' + require('node:url').pathToFileURL(f).href + '\\n'); });\n",
);

function modules(c: Case): { ours: number; packages: number } {
  const r = spawnSync(process.execPath, ['--require', countRegister, ...c.args], {
    env: { PATH: process.env.PATH ?? '', ...c.env },
    encoding: 'utf8',
  });
  const urls = new Set(
    r.stderr
      .split('\n')
      .filter((l) => l.startsWith('MODULE ') && !l.includes(tmp))
      .map((l) => l.slice(7)),
  );
  const packages = [...urls].filter((u) => u.includes('/node_modules/')).length;
  return { ours: urls.size - packages, packages };
}

const log = (m: string) => process.stderr.write(`[bench:cli] ${m}\n`);
for (const c of all) runOnce(c); // warm the file cache and each store's index
const times = new Map(all.map((c) => [c.name, { wall: [] as number[], cpu: [] as number[] }]));
for (let i = 0; i < RUNS; i++) {
  for (const c of all) {
    const r = runOnce(c);
    times.get(c.name)!.wall.push(r.wall);
    times.get(c.name)!.cpu.push(r.cpu);
  }
  if ((i + 1) % 5 === 0) log(`${i + 1}/${RUNS} rounds`);
}
const bare = times.get(all[0].name)!;
const bareWall = percentile(bare.wall, 50);
const bareCpu = percentile(bare.cpu, 50);
const rows = all.map((c) => {
  const t = times.get(c.name)!;
  const m = c.args[0] === '-e' ? { ours: 0, packages: 0 } : modules(c);
  return {
    case: c.name,
    p50: round(percentile(t.wall, 50), 1),
    p90: round(percentile(t.wall, 90), 1),
    ratio: round(percentile(t.wall, 50) / bareWall, 2),
    cpu: round(percentile(t.cpu, 50), 1),
    cpuRatio: round(percentile(t.cpu, 50) / bareCpu, 2),
    modules: m.ours,
    packageModules: m.packages,
    runs: t.wall.length,
  };
});
rmSync(tmp, { recursive: true, force: true });
if (values.json) process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
else {
  process.stdout.write(
    '| case | wall p50 ms | p90 ms | p50 ÷ bare node | CPU p50 ms | CPU ÷ bare node | files loaded (ours + packages) |\n|---|---:|---:|---:|---:|---:|---:|\n',
  );
  for (const r of rows)
    process.stdout.write(
      `| ${r.case} | ${r.p50} | ${r.p90} | ${r.ratio}× | ${r.cpu} | ${r.cpuRatio}× | ${r.modules} + ${r.packageModules} |\n`,
    );
}
