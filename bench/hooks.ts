/**
 * Hook latency: wall time from process start to exit of `tapedeck hook …` as a host runs it (stdin
 * piped, stdout read), beside a bare `node -e ''` started the same way in the same run, the cases
 * interleaved round by round so machine load hits them alike. Goal: p50 ≤ 1.5× the bare node.
 *
 *   npm run build && node --import tsx bench/hooks.ts [--runs 25] [--no-server] [--json] [--baseline BIN]
 *
 * `--baseline /old/checkout/bin/tapedeck.js` interleaves the same hook cases run by another build
 * (its own store, set up by that build), so a change is measured against the code before it.
 *
 * Cases: session start (context bundle) served from the exact cached bundle, and built from the
 * store (cache invalidated before each run); session end (the save queued and a detached worker
 * started); the full CLI doing the same work for contrast (`tapedeck context`, `tapedeck index`); with a
 * running `tapedeck serve`, session start and end against the server. Also the time until a queued
 * save is in the store (`tapedeck queue flush`).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { percentile, round } from './stats.js';

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'tapedeck.js');
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '25' },
    'no-server': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    baseline: { type: 'string' },
  },
});
const RUNS = Number(values.runs);
const log = (m: string) => process.stderr.write(`[bench:hooks] ${m}\n`);

const root = mkdtempSync(join(tmpdir(), 'tapedeck bench hooks é-'));
const home = join(root, 'home');
const tapedeckHome = join(root, 'tapedeck');
const project = join(root, 'shop');
mkdirSync(project, { recursive: true });
const env: Record<string, string> = { HOME: home, TAPEDECK_HOME: tapedeckHome, PATH: process.env.PATH ?? '' };
const SESSION = '4f1c2d3e-8a9b-4c5d-9e0f-1a2b3c4d5e6f';
const transcriptDir = join(home, '.claude', 'projects', '-shop');
mkdirSync(transcriptDir, { recursive: true });
const transcript = join(transcriptDir, `${SESSION}.jsonl`);
copyFileSync(join(ROOT, 'src', 'sources', 'claude-code', 'fixtures', `${SESSION}.jsonl`), transcript);

const cli = (args: string[], extra: Record<string, string> = {}, bin = BIN) => {
  const r = spawnSync(process.execPath, [bin, ...args], { env: { ...env, ...extra }, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`tapedeck ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
};

const payload = (event: string) =>
  JSON.stringify({
    session_id: SESSION,
    transcript_path: transcript,
    cwd: project,
    hook_event_name: event,
    ...(event === 'SessionStart' ? { source: 'startup' } : { reason: 'exit' }),
  });

interface Case {
  name: string;
  args: string[];
  input?: string;
  env?: Record<string, string>;
  before?: () => void;
  /** Untimed, after the run: wait for what the hook started in the background. */
  after?: () => void;
  check?: (stdout: string) => void;
}

/** The detached queue worker a session end starts must not compete with the next timed run. */
function waitForWorker(home = tapedeckHome): void {
  const lock = join(home, 'queue', '.lock');
  const t = Date.now();
  spawnSync('sleep', ['0.05']);
  while ((existsSync(lock) || queued(home) > 0) && Date.now() - t < 20_000) spawnSync('sleep', ['0.02']);
}
const queued = (home: string) => {
  try {
    return readdirSync(join(home, 'queue')).filter((f) => f.endsWith('.json')).length;
  } catch {
    return 0;
  }
};

// Preloaded into every timed process, the bare node included: writes the process's CPU time (user +
// system, less load-sensitive than wall time on a shared machine) when it exits. Processes it starts
// (a session end's queue worker) inherit the marker and write nothing.
const cpuFile = join(root, 'cpu');
const cpuHook = join(root, 'cpu-hook.cjs');
writeFileSync(
  cpuHook,
  "if (!process.env.BENCH_CPU_DONE) { process.env.BENCH_CPU_DONE = '1'; process.on('exit', () => { const u = process.cpuUsage(); require('node:fs').writeFileSync(process.env.BENCH_CPU_FILE, String((u.user + u.system) / 1000)); }); }\n",
);

function runOnce(c: Case): { wall: number; cpu: number } {
  c.before?.();
  const t = performance.now();
  const r = spawnSync(process.execPath, ['--require', cpuHook, ...c.args], {
    env: { ...env, ...c.env, BENCH_CPU_FILE: cpuFile },
    input: c.input ?? '',
    encoding: 'utf8',
    cwd: project,
  });
  const wall = performance.now() - t;
  if (r.status !== 0) throw new Error(`${c.name}: exit ${r.status}: ${r.stderr}`);
  const cpu = Number(readFileSync(cpuFile, 'utf8'));
  c.check?.(r.stdout);
  c.after?.();
  return { wall, cpu };
}

interface Times {
  wall: number[];
  cpu: number[];
}

function measure(cases: Case[]): Map<string, Times> {
  const times = new Map(cases.map((c) => [c.name, { wall: [], cpu: [] } as Times]));
  for (const c of cases) runOnce(c); // warm the file cache (and write the code cache)
  for (let i = 0; i < RUNS; i++)
    for (const c of cases) {
      const r = runOnce(c);
      times.get(c.name)!.wall.push(r.wall);
      times.get(c.name)!.cpu.push(r.cpu);
    }
  return times;
}

const hasContext = (out: string) => {
  if (!JSON.parse(out).hookSpecificOutput?.additionalContext) throw new Error('no context in the answer');
};
const dropCache = () => rmSync(join(tapedeckHome, 'hooks', 'context'), { recursive: true, force: true });
const hook = (event: string, extra: Partial<Case> = {}): Case => ({
  name: `hook ${event}`,
  args: [BIN, 'hook', 'claude-code', event],
  input: payload(event),
  ...extra,
});

async function startServer(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (d) => {
      err += d;
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`tapedeck serve exited ${code}: ${err}`)));
    setTimeout(() => reject(new Error(`tapedeck serve did not start: ${err}`)), 15_000);
  });
  return { child, url };
}

async function main() {
  log(`store in ${root}`);
  cli(['index', '--agent', 'claude-code']);
  cli(['memory', 'add', '--title', 'Staging database', '--project', project, 'The staging DB is db-stage-2']);
  cli(['rules', 'add', '--help']); // loads the CLI once (file cache) before timing
  const bare: Case = { name: 'node -e ""', args: ['-e', ''], input: payload('SessionStart') };
  const cases: Case[] = [
    bare,
    hook('SessionStart', { name: 'session start, cached bundle', check: hasContext }),
    hook('SessionStart', { name: 'session start, bundle built', before: dropCache, check: hasContext }),
    hook('SessionEnd', { name: 'session end, save queued', after: () => waitForWorker() }),
    {
      name: 'full CLI: tapedeck context',
      args: [BIN, 'context', '--agent', 'claude-code', '--project', project],
    },
    { name: 'full CLI: tapedeck index', args: [BIN, 'index', '--agent', 'claude-code'] },
  ];
  if (values.baseline) {
    // The build before the change, on its own store (a newer schema is not for older code).
    const bin = values.baseline;
    const home = join(root, 'tapedeck-baseline');
    const benv = { TAPEDECK_HOME: home };
    cli(['index', '--agent', 'claude-code'], benv, bin);
    cli(
      ['memory', 'add', '--title', 'Staging database', '--project', project, 'The staging DB is db-stage-2'],
      benv,
      bin,
    );
    cases.push(
      {
        ...hook('SessionStart', { check: hasContext }),
        name: 'baseline: session start, cached bundle',
        args: [bin, 'hook', 'claude-code', 'SessionStart'],
        env: benv,
      },
      {
        ...hook('SessionEnd'),
        name: 'baseline: session end, save queued',
        args: [bin, 'hook', 'claude-code', 'SessionEnd'],
        env: benv,
        after: () => waitForWorker(home),
      },
    );
  }
  const results = measure(cases);

  // How long until a queued save is in the store (what the detached worker does).
  const flush: Times = { wall: [], cpu: [] };
  for (let i = 0; i < Math.min(RUNS, 10); i++) {
    runOnce({ ...hook('SessionEnd'), env: { TAPEDECK_HOOK_NO_WORKER: '1' } });
    const r = runOnce({ name: 'queue flush', args: [BIN, 'queue', 'flush'] });
    flush.wall.push(r.wall);
    flush.cpu.push(r.cpu);
  }
  results.set('save done: tapedeck queue flush', flush);

  if (!values['no-server']) {
    const server = await startServer();
    try {
      const senv = { TAPEDECK_API_URL: server.url };
      const serverCases: Case[] = [
        { ...bare, name: 'node -e "" (server run)' },
        hook('SessionStart', { name: 'server: session start', env: senv, check: hasContext }),
        hook('SessionEnd', {
          name: 'server: session end, save queued',
          env: senv,
          after: () => waitForWorker(),
        }),
      ];
      for (const [k, v] of measure(serverCases)) results.set(k, v);
    } finally {
      server.child.kill('SIGTERM');
    }
  }

  const bareRun = results.get(bare.name)!;
  const serverRun = results.get('node -e "" (server run)');
  const rows = [...results].map(([name, t]) => {
    const ref = name.startsWith('server') && serverRun ? serverRun : bareRun;
    const p50 = percentile(t.wall, 50);
    const cpu = percentile(t.cpu, 50);
    return {
      case: name,
      p50: round(p50, 1),
      p90: round(percentile(t.wall, 90), 1),
      ratio: round(p50 / percentile(ref.wall, 50), 2),
      cpu: round(cpu, 1),
      cpuRatio: round(cpu / percentile(ref.cpu, 50), 2),
      runs: t.wall.length,
    };
  });
  if (values.json) process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
  else {
    process.stdout.write(
      '| case | p50 ms | p90 ms | p50 ÷ bare node | CPU p50 ms | CPU ÷ bare node | runs |\n|---|---:|---:|---:|---:|---:|---:|\n',
    );
    for (const r of rows)
      process.stdout.write(
        `| ${r.case} | ${r.p50} | ${r.p90} | ${r.ratio}× | ${r.cpu} | ${r.cpuRatio}× | ${r.runs} |\n`,
      );
  }
  // let the detached workers of the timed session ends finish before removing their store
  cli(['queue', 'flush']);
  rmSync(root, { recursive: true, force: true });
}

main().catch((e) => {
  process.stderr.write(`${e?.stack ?? e}\n`);
  process.exit(1);
});
