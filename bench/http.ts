/**
 * HTTP server benchmark: `tapedeck serve` in a child process over a copy of a benchmark store, driven
 * by a small keep-alive load generator (node:http Agent) on loopback only.
 *
 *   npm run build && node --import tsx bench/http.ts [--steps 100000] [--duration 15] [--keyless]
 *     [--queries questions|keywords] [--rates 200,300,…] [--probe 3] [--workers 1]
 *
 * 1. Search round trip: sequential searches on one keep-alive connection (p50, p90, p99).
 * 2. Mixed load (60% search, 20% saved-thread append, 20% memory add), open loop: requests are
 *    sent on a fixed schedule whatever the answers do, and latency is measured from the scheduled
 *    time (no coordinated omission). Short probes step the rate up until p99 > 50 ms or an error;
 *    the highest passing rate then runs for --duration seconds.
 * 3. The same mix driven by autocannon (the npm load generator): closed loop, 8 keep-alive
 *    connections, at full speed (throughput) and capped at the sustained rate (latency).
 * Server CPU (% of one core) and RSS come from /proc/<pid>. Bounded: every phase has a time and
 * a request cap. Prints a table; writes bench/.out/http-<backend>.json.
 *
 * --backend postgres copies the benchmark store into a fresh schema on TAPEDECK_DATABASE_URL (or
 * TAPEDECK_TEST_DATABASE_URL) with `tapedeck migrate` (timed), serves from it, and drops the schema.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { loadConfig } from '../src/app/config.js';
import { createEngine } from '../src/app/engine.js';
import { readLocalToken } from '../src/app/local-token.js';
import { cachedStore } from './cached-store.js';
import { percentile, round } from './stats.js';

const ROOT = join(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    steps: { type: 'string', default: '100000' },
    duration: { type: 'string', default: '15' },
    keyless: { type: 'boolean', default: false },
    rates: { type: 'string', default: '25,50,75,100,150,200,300,400,500,600,800,1000' },
    probe: { type: 'string', default: '3' },
    /** questions (the corpus's planted questions) or keywords (the longest word of each). */
    queries: { type: 'string', default: 'questions' },
    backend: { type: 'string', default: 'sqlite' },
    /** Passed to `tapedeck serve --workers` (server processes sharing the port). */
    workers: { type: 'string', default: '1' },
  },
});
const BACKEND = values.backend === 'postgres' ? 'postgres' : 'sqlite';
const PG_BASE = process.env.TAPEDECK_DATABASE_URL ?? process.env.TAPEDECK_TEST_DATABASE_URL;
if (BACKEND === 'postgres' && !PG_BASE) throw new Error('--backend postgres needs TAPEDECK_DATABASE_URL');
let dropSchema = () => {};
let migrateS = Number.NaN;
const STEPS = Number(values.steps);
const DURATION_S = Number(values.duration);
const PROBE_S = Number(values.probe);
const RATES = values.rates!.split(',').map(Number);
const P99_GOAL_MS = 50;
const MAX_IN_FLIGHT = 512;
const log = (m: string) => process.stderr.write(`[bench:http] ${m}\n`);
let inProcess = { p50: Number.NaN, p99: Number.NaN };

// ---- the store ------------------------------------------------------------------------------

/** A private copy of the benchmark store (online backup: consistent even while others use it). */
async function prepareHome(): Promise<{
  home: string;
  env: Record<string, string>;
  queries: string[];
}> {
  const root = mkdtempSync(join(tmpdir(), 'tapedeck-bench-http-'));
  const tapedeckHome = join(root, 'tapedeck');
  mkdirSync(tapedeckHome, { recursive: true });
  const env: Record<string, string> = {
    HOME: join(root, 'home'),
    TAPEDECK_HOME: tapedeckHome,
    PATH: process.env.PATH ?? '',
  };
  const corpus = await cachedStore(STEPS, tapedeckHome, env, log);
  if (BACKEND === 'postgres') {
    // The same store, copied into a fresh schema by `tapedeck migrate` (timed: it is a user path too).
    const schema = `bench_${process.pid}`;
    const u = new URL(PG_BASE!);
    u.searchParams.set('schema', schema);
    const t = performance.now();
    const r = spawnSync(
      process.execPath,
      [join(ROOT, 'bin', 'tapedeck.js'), 'migrate', '--to', u.toString(), '--json'],
      {
        env,
        encoding: 'utf8',
        maxBuffer: 64 << 20,
      },
    );
    if (r.status !== 0) throw new Error(`migrate failed: ${r.stderr}`);
    migrateS = round((performance.now() - t) / 1000, 1);
    log(`migrated into PostgreSQL schema ${schema} in ${migrateS} s`);
    Object.assign(env, { TAPEDECK_DATABASE_URL: u.toString() });
    dropSchema = () => {
      const base = new URL(PG_BASE!);
      spawnSync('psql', [base.toString(), '-qc', `DROP SCHEMA IF EXISTS ${schema} CASCADE`]);
    };
  }
  const qfile = join(corpus, 'questions.jsonl');
  const queries = existsSync(qfile)
    ? readFileSync(qfile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { question: string }).question)
    : ['cors preflight', 'database migration', 'flaky test', 'retry backoff', 'memory leak'];
  if (values.queries === 'keywords')
    for (let i = 0; i < queries.length; i++)
      queries[i] = queries[i].split(/[^\w.-]+/).sort((a, b) => b.length - a.length)[0] ?? queries[i];
  // Migrations run here, outside the measurement; the same searches in process give the floor
  // the HTTP round trip adds to.
  const engine = createEngine(loadConfig({}, env));
  const stats = engine.stats();
  const direct: number[] = [];
  for (let i = 0; i < 600; i++) {
    const t = performance.now();
    engine.transcripts.search(queries[i % queries.length], { limit: 10 });
    if (i >= 100) direct.push(performance.now() - t);
  }
  engine.close();
  inProcess = { p50: round(percentile(direct, 50)), p99: round(percentile(direct, 99)) };
  log(`store: ${stats.threads} threads, ${stats.steps} steps; in-process search p50 ${inProcess.p50} ms`);
  return { home: root, env, queries };
}

// ---- the server -----------------------------------------------------------------------------

async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [
      join(ROOT, 'bin', 'tapedeck.js'),
      'serve',
      '--port',
      '0',
      '--refresh',
      '0',
      '--workers',
      values.workers!,
    ],
    {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let err = '';
  return new Promise((resolve, reject) => {
    child.stderr?.on('data', (d) => {
      err += d;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(err);
      if (m) resolve({ child, url: m[1] });
    });
    child.on('exit', (code) => reject(new Error(`server exited ${code}: ${err}`)));
  });
}

/** CPU seconds (user + system) and RSS bytes of the server: the process and its workers. */
function procSample(pid: number): { cpuS: number; rss: number } {
  const kids = (() => {
    try {
      return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    } catch {
      return [];
    }
  })();
  const all = [onePid(pid), ...kids.map((k) => onePid(Number(k)))];
  return { cpuS: all.reduce((a, x) => a + x.cpuS, 0), rss: all.reduce((a, x) => a + x.rss, 0) };
}

/** CPU seconds (user + system) and RSS bytes of one process, from /proc (0 once it is gone). */
function onePid(pid: number): { cpuS: number; rss: number } {
  if (!existsSync(`/proc/${pid}/stat`)) return { cpuS: 0, rss: 0 };
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  return { cpuS: ticks / 100, rss: rssKb * 1024 };
}

// ---- the client -----------------------------------------------------------------------------

const agent = new Agent({ keepAlive: true, maxSockets: 64 });
let base = '';
let headers: Record<string, string> = {};

function send(method: string, path: string, body?: unknown): Promise<number> {
  return new Promise((resolve) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      `${base}${path}`,
      {
        method,
        agent,
        headers: {
          ...headers,
          ...(data ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } : {}),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', () => resolve(0));
    req.end(data);
  });
}

interface Mix {
  queries: string[];
  threads: string[];
  n: number;
}

/** One request of the mix: 60% search, 20% thread append, 20% memory add. */
const mixed = (m: Mix): Promise<number> => mixedOf(m, m.n % 10);

/** Request number `m.n` of the kind that `r` (0–9) picks: 0–5 search, 6–7 append, 8–9 memory add. */
function mixedOf(m: Mix, r: number): Promise<number> {
  const x = mixRequest(m, r);
  return send(x.method, x.path, x.json);
}

function mixRequest(
  m: Mix,
  r: number,
): { method: string; path: string; json?: unknown; body?: string; headers: Record<string, string> } {
  const i = m.n++;
  const withBody = (method: string, path: string, json: unknown) => ({
    method,
    path,
    json,
    body: JSON.stringify(json),
    headers: { 'content-type': 'application/json' },
  });
  if (r < 6)
    return {
      method: 'GET',
      path: `/v1/search?q=${encodeURIComponent(m.queries[i % m.queries.length])}&limit=10`,
      headers: {},
    };
  if (r < 8)
    return withBody('POST', `/v1/saved-threads/${m.threads[i % m.threads.length]}/messages`, {
      messages: [
        {
          role: i % 2 ? 'assistant' : 'user',
          content: `load message ${i}: ${m.queries[i % m.queries.length]}`,
        },
      ],
    });
  return withBody('POST', '/v1/memories', {
    content: `Benchmark memory ${i} ${process.pid}: ${m.queries[(i * 7) % m.queries.length]} (${Math.random().toString(36).slice(2)})`,
    labels: ['bench'],
  });
}

interface LoadResult {
  rate: number;
  seconds: number;
  sent: number;
  achieved: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  cpuPct?: number;
  rssMb?: number;
  rssPeakMb?: number;
}

/** Open loop at `rate` req/s for `seconds`, latency from the scheduled send time. */
async function openLoop(m: Mix, rate: number, seconds: number, pid?: number): Promise<LoadResult> {
  const total = Math.round(rate * seconds);
  const lat: number[] = [];
  let errors = 0;
  let inFlight = 0;
  let sent = 0;
  const t0 = performance.now();
  const cpu0 = pid ? procSample(pid) : undefined;
  let rssPeak = 0;
  const sampler = pid
    ? setInterval(() => {
        rssPeak = Math.max(rssPeak, procSample(pid).rss);
      }, 250)
    : undefined;
  const done: Promise<void>[] = [];
  while (sent < total) {
    const due = t0 + (sent * 1000) / rate;
    const now = performance.now();
    if (due > now) {
      await new Promise((r) => setTimeout(r, Math.max(0, due - now - 0.5)));
      continue;
    }
    if (inFlight >= MAX_IN_FLIGHT) {
      // Overloaded: count the request as failed rather than queue without bound.
      errors++;
      sent++;
      continue;
    }
    inFlight++;
    sent++;
    done.push(
      mixed(m).then((status) => {
        inFlight--;
        lat.push(performance.now() - due);
        if (status < 200 || status >= 300) errors++;
      }),
    );
    if (performance.now() - t0 > seconds * 1000 + 10_000) break; // hard stop
  }
  await Promise.all(done);
  const wall = (performance.now() - t0) / 1000;
  if (sampler) clearInterval(sampler);
  const out: LoadResult = {
    rate,
    seconds: round(wall, 1),
    sent,
    achieved: round(lat.length / wall, 0),
    p50: round(percentile(lat, 50)),
    p99: round(percentile(lat, 99)),
    max: round(Math.max(...lat)),
    errors,
  };
  if (pid && cpu0) {
    const s = procSample(pid);
    out.cpuPct = round((100 * (s.cpuS - cpu0.cpuS)) / wall, 0);
    out.rssMb = round(s.rss / 1048576, 0);
    out.rssPeakMb = round(Math.max(rssPeak, s.rss) / 1048576, 0);
  }
  return out;
}

// ---- main -----------------------------------------------------------------------------------

async function main(): Promise<void> {
  const { home, env, queries } = await prepareHome();
  if (!values.keyless) {
    const engine = createEngine(loadConfig({}, env));
    const key = (await engine.keys.create({ name: 'bench', scope: 'write' })).key;
    engine.close();
    headers = { authorization: `Bearer ${key}` };
  }
  const { child, url } = await startServer(env);
  // Keyless: the owner token the server created, as the CLI and hooks send it.
  if (values.keyless) headers = { authorization: `Bearer ${readLocalToken(env.TAPEDECK_HOME!) ?? ''}` };
  base = url;
  if (!/^http:\/\/127\.0\.0\.1:/.test(base)) throw new Error('loopback only');
  const pid = child.pid!;
  try {
    const threads = Array.from({ length: 20 }, (_, i) => `bench-thread-${i}`);
    for (const t of threads)
      await send('POST', '/v1/saved-threads', {
        id: t,
        source: 'bench',
        messages: [{ role: 'user', content: `start ${t}` }],
      });
    const mix: Mix = { queries, threads, n: 0 };

    log('warming up');
    for (let i = 0; i < 300; i++)
      await send('GET', `/v1/search?q=${encodeURIComponent(queries[i % queries.length])}`);

    log('search round trip (sequential, one keep-alive connection)');
    const rt: number[] = [];
    const t0 = performance.now();
    for (let i = 0; i < 1000 && performance.now() - t0 < 60_000; i++) {
      const s = performance.now();
      const status = await send(
        'GET',
        `/v1/search?q=${encodeURIComponent(queries[i % queries.length])}&limit=10`,
      );
      if (status !== 200) throw new Error(`search answered ${status}`);
      rt.push(performance.now() - s);
    }
    const search = {
      n: rt.length,
      p50: round(percentile(rt, 50)),
      p90: round(percentile(rt, 90)),
      p99: round(percentile(rt, 99)),
    };
    log(`search: p50 ${search.p50} ms, p90 ${search.p90} ms, p99 ${search.p99} ms`);

    const livez: number[] = [];
    for (let i = 0; i < 500; i++) {
      const s = performance.now();
      await send('GET', '/livez');
      livez.push(performance.now() - s);
    }

    // Server CPU per request of each kind (sequential): steadier than wall time on a shared
    // machine, and what bounds the rate of a single-threaded server.
    log('server CPU per request, by kind');
    const kinds: Record<string, () => Promise<number>> = {
      livez: () => send('GET', '/livez'),
      search: () =>
        send('GET', `/v1/search?q=${encodeURIComponent(queries[mix.n++ % queries.length])}&limit=10`),
      append: () => mixedOf(mix, 6),
      memory_add: () => mixedOf(mix, 8),
    };
    const cpuPerRequest: Record<string, { cpu_ms: number; wall_p50: number }> = {};
    for (const [kind, fn] of Object.entries(kinds)) {
      const n = 500;
      const walls: number[] = [];
      const c0 = procSample(pid).cpuS;
      for (let i = 0; i < n; i++) {
        const t = performance.now();
        await fn();
        walls.push(performance.now() - t);
      }
      cpuPerRequest[kind] = {
        cpu_ms: round((1000 * (procSample(pid).cpuS - c0)) / n, 3),
        wall_p50: round(percentile(walls, 50)),
      };
      log(`  ${kind}: ${cpuPerRequest[kind].cpu_ms} ms CPU, ${cpuPerRequest[kind].wall_p50} ms p50`);
    }
    const mixCpu =
      0.6 * cpuPerRequest.search.cpu_ms +
      0.2 * cpuPerRequest.append.cpu_ms +
      0.2 * cpuPerRequest.memory_add.cpu_ms;
    const capacity = round(1000 / mixCpu, 0);
    log(`  mix: ${round(mixCpu, 3)} ms CPU per request → at most ~${capacity} req/s on one core`);

    log(`probing rates (${PROBE_S} s each) for p99 <= ${P99_GOAL_MS} ms`);
    const probes: LoadResult[] = [];
    let best = 0;
    for (const rate of RATES) {
      const r = await openLoop(mix, rate, PROBE_S);
      probes.push(r);
      log(`  ${rate}/s → ${r.achieved}/s p50 ${r.p50} p99 ${r.p99} errors ${r.errors}`);
      if (r.p99 > P99_GOAL_MS || r.errors > 0) break;
      best = rate;
      await new Promise((res) => setTimeout(res, 500));
    }
    let sustained: LoadResult | undefined;
    for (let i = RATES.indexOf(best); i >= 0 && best > 0; i--) {
      log(`sustained: ${RATES[i]}/s for ${DURATION_S} s`);
      sustained = await openLoop(mix, RATES[i], DURATION_S, pid);
      log(
        `  → ${sustained.achieved}/s p50 ${sustained.p50} p99 ${sustained.p99} errors ${sustained.errors} cpu ${sustained.cpuPct}% rss ${sustained.rssMb} MB`,
      );
      if (sustained.p99 <= P99_GOAL_MS && sustained.errors === 0) break;
    }

    // The npm load generator over the same mix: full speed, then capped at the sustained rate.
    const cannon = async (rate?: number) => {
      const c0 = procSample(pid);
      const t = performance.now();
      const r = await autocannon({
        url: base,
        connections: 8,
        duration: DURATION_S,
        ...(rate ? { overallRate: rate } : {}),
        headers,
        requests: [
          {
            setupRequest: (req: autocannon.Request) => {
              const x = mixRequest(mix, mix.n % 10);
              return {
                ...req,
                method: x.method as autocannon.Request['method'],
                path: x.path,
                body: x.body,
                headers: { ...headers, ...x.headers },
              };
            },
          },
        ],
      });
      const wall = (performance.now() - t) / 1000;
      const s = procSample(pid);
      const out = {
        rate: rate ?? 'max',
        req_s: round(r.requests.average, 0),
        p50: r.latency.p50,
        p90: r.latency.p90,
        p99: r.latency.p99,
        max: r.latency.max,
        errors: r.errors + r.timeouts + r.non2xx,
        cpuPct: round((100 * (s.cpuS - c0.cpuS)) / wall, 0),
        rssMb: round(s.rss / 1048576, 0),
      };
      log(
        `  autocannon ${out.rate}: ${out.req_s} req/s p50 ${out.p50} p99 ${out.p99} errors ${out.errors} cpu ${out.cpuPct}%`,
      );
      return out;
    };
    log(`autocannon, 8 connections, ${DURATION_S} s`);
    const cannonMax = await cannon();
    const cannonAt = best > 0 ? await cannon(best) : undefined;

    const results = {
      backend: BACKEND,
      workers: values.workers,
      migrate_s: migrateS,
      autocannon: { max: cannonMax, at_sustained_rate: cannonAt },
      store: { steps: STEPS },
      queries: values.queries,
      auth: values.keyless ? 'keyless (loopback)' : 'bearer key',
      search,
      in_process_search: inProcess,
      cpu_per_request: cpuPerRequest,
      capacity_one_core: capacity,
      livez_p50: round(percentile(livez, 50)),
      probes,
      sustained,
    };
    mkdirSync(join(ROOT, 'bench', '.out'), { recursive: true });
    writeFileSync(
      join(ROOT, 'bench', '.out', `http-${BACKEND}.json`),
      `${JSON.stringify(results, null, 2)}\n`,
    );
    const s = sustained;
    console.log(`
| HTTP server on ${BACKEND}, ${values.workers} worker${values.workers === '1' ? '' : 's'} (${STEPS.toLocaleString('en-US')} steps, ${values.queries}, ${results.auth}, loopback, keep-alive) | |
|---|---|
| search round trip p50 / p90 / p99 | ${search.p50} / ${search.p90} / ${search.p99} ms |
| the same searches in process (no HTTP) p50 / p99 | ${inProcess.p50} / ${inProcess.p99} ms |
| /livez round trip p50 | ${results.livez_p50} ms |
| server CPU per request: search / append / memory add / livez | ${cpuPerRequest.search.cpu_ms} / ${cpuPerRequest.append.cpu_ms} / ${cpuPerRequest.memory_add.cpu_ms} / ${cpuPerRequest.livez.cpu_ms} ms |
| mix capacity from CPU (one core) | ~${capacity} req/s |
| mixed load (60% search, 20% append, 20% memory add), ${s?.seconds ?? '—'} s | ${s ? `${s.achieved} req/s offered ${s.rate}/s` : '—'} |
| mixed p50 / p99 / max | ${s ? `${s.p50} / ${s.p99} / ${s.max} ms` : '—'} |
| errors | ${s?.errors ?? '—'} |
| server CPU (% of one core, all processes) / RSS end / RSS peak | ${s ? `${s.cpuPct}% / ${s.rssMb} MB / ${s.rssPeakMb} MB` : '—'} |
| autocannon (8 connections), full speed: req/s, p50 / p99, errors, server CPU | ${cannonMax.req_s} req/s, ${cannonMax.p50} / ${cannonMax.p99} ms, ${cannonMax.errors}, ${cannonMax.cpuPct}% |
| autocannon capped at ${best || '—'}/s: p50 / p99, errors | ${cannonAt ? `${cannonAt.p50} / ${cannonAt.p99} ms, ${cannonAt.errors}` : '—'} |${BACKEND === 'postgres' ? `\n| tapedeck migrate of the store into PostgreSQL | ${migrateS} s |` : ''}`);
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    agent.destroy();
    rmSync(home, { recursive: true, force: true });
    dropSchema();
  }
}

await main();
