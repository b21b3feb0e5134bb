/**
 * Web page benchmark in Debian's Chromium (playwright-core, headless), against `tapedeck serve`
 * child processes on loopback:
 *
 *   npm run build && node --import tsx bench/web.ts [--steps 100000] [--sessions 10000] [--runs 5]
 *
 * 1. First paint: a fresh browser context (empty cache) loads the page; first-contentful-paint
 *    from the Paint Timing API. Baseline: the same browser painting a static one-line page from
 *    a bare node:http server in the same run.
 * 2. Search: on a store of --steps steps (the benchmark corpus), each planted question is typed
 *    into the search box; the page times the last keystroke → results on screen (debounce,
 *    request, render). Baseline: the same query's GET /v1/search round trip from Node.
 * 3. Timeline: on a store of --sessions sessions spread over a year across four agents (written
 *    through the store's own writer), the timeline view's fetch + SVG render. Baseline: the
 *    /v1/timeline round trip from Node.
 * Prints a table (goal beside each figure) and writes bench/.out/web.json.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type BrowserContext, chromium } from 'playwright-core';
import { loadConfig } from '../src/app/config.js';
import { createEngine } from '../src/app/engine.js';
import { AGENT_IDS } from '../src/core/types.js';
import { cachedStore } from './cached-store.js';
import { percentile, round } from './stats.js';

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'tapedeck.js');
const { values } = parseArgs({
  options: {
    steps: { type: 'string', default: '100000' },
    sessions: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '5' },
    queries: { type: 'string', default: '20' },
  },
});
const STEPS = Number(values.steps);
const SESSIONS = Number(values.sessions);
const RUNS = Number(values.runs);
const log = (m: string) => process.stderr.write(`[bench:web] ${m}\n`);
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

interface Served {
  base: string;
  key: string;
  child: ChildProcess;
}

/** A home whose store is `fill`ed once, served by `tapedeck serve` with an admin key. */
async function serve(
  name: string,
  fill: (home: string, env: Record<string, string>) => Promise<void>,
): Promise<Served> {
  const root = mkdtempSync(join(tmpdir(), `tapedeck-bench-web-${name}-`));
  const env: Record<string, string> = {
    HOME: join(root, 'home'),
    TAPEDECK_HOME: join(root, 'tapedeck'),
    PATH: process.env.PATH ?? '',
  };
  mkdirSync(env.TAPEDECK_HOME, { recursive: true });
  await fill(env.TAPEDECK_HOME, env);
  const engine = createEngine(loadConfig({}, env));
  const key = (await engine.keys.create({ name: 'bench', scope: 'admin' })).key;
  engine.close();
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--refresh', '0'], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const base = await new Promise<string>((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (c) => {
      err += c;
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
  child.once('exit', () => rmSync(root, { recursive: true, force: true }));
  return { base, key, child };
}

/** The benchmark corpus's store (bench/cached-store.ts). */
const fillSteps = async (home: string, env: Record<string, string>) => {
  await cachedStore(STEPS, home, env, log);
};

/** SESSIONS threads over the last 365 days, four agents, 30 projects (threads only: the timeline counts threads). */
async function fillSessions(_home: string, env: Record<string, string>): Promise<void> {
  const engine = createEngine(loadConfig({}, env));
  const now = Date.now();
  engine.store.write((w) => {
    for (let i = 0; i < SESSIONS; i++) {
      const agent = AGENT_IDS[i % AGENT_IDS.length];
      const start = now - ((i * 7919) % 365) * 86_400_000 - (i % 24) * 3_600_000;
      w.upsertThread({
        id: `${agent}:bench-${i}`,
        agent,
        sessionId: `bench-${i}`,
        project: `/home/dev/project-${i % 30}`,
        title: `Bench session ${i}`,
        startedAt: new Date(start).toISOString(),
        updatedAt: new Date(start + ((i % 5) + 1) * 600_000).toISOString(),
        source: `/bench/${agent}/${i}.jsonl`,
      });
    }
  });
  engine.close();
}

const stat = (xs: number[]) => ({
  p50: round(percentile(xs, 50), 1),
  p90: round(percentile(xs, 90), 1),
  max: round(Math.max(...xs), 1),
  n: xs.length,
});

async function launch(): Promise<{ ctx: BrowserContext; profile: string }> {
  const profile = mkdtempSync(join(tmpdir(), 'tapedeck-bench-chromium-'));
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ARGS,
    viewport: { width: 1200, height: 860 },
  });
  return { ctx, profile };
}

async function firstPaint(ctx: BrowserContext, url: string): Promise<number> {
  const page = await ctx.newPage();
  await page.route('**/*', (r) =>
    r.continue({ headers: { ...r.request().headers(), 'cache-control': 'no-cache' } }),
  );
  await page.goto(url, { waitUntil: 'load' });
  // Polled from here: the page's CSP (no eval) rules out waitForFunction's in-page predicates.
  while (!(await page.evaluate("performance.getEntriesByName('first-contentful-paint').length > 0")))
    await new Promise((r) => setTimeout(r, 10));
  const fcp = (await page.evaluate(
    "performance.getEntriesByName('first-contentful-paint')[0].startTime",
  )) as number;
  await page.close();
  return fcp;
}

async function main(): Promise<void> {
  if (!existsSync('/usr/bin/chromium'))
    throw new Error('/usr/bin/chromium is missing (apt-get install chromium)');
  const results: Record<string, unknown> = { steps: STEPS, sessions: SESSIONS, runs: RUNS };

  // Baseline page: one line of HTML from a bare node:http server.
  const bare = createServer((_q, s) =>
    s.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><p>hello</p>'),
  );
  await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
  const bareUrl = `http://127.0.0.1:${(bare.address() as { port: number }).port}/`;

  log(`store with ${STEPS} steps`);
  const big = await serve('steps', fillSteps);
  log(`store with ${SESSIONS} sessions`);
  const many = await serve('sessions', fillSessions);
  const { ctx, profile } = await launch();
  try {
    // 1. First paint (fresh page each run; the first run also warms the server's file cache).
    const fcp: number[] = [];
    const fcpBare: number[] = [];
    for (let i = 0; i < RUNS + 1; i++) {
      const a = await firstPaint(ctx, `${big.base}/#token=${big.key}`);
      const b = await firstPaint(ctx, bareUrl);
      if (i === 0) continue;
      fcp.push(a);
      fcpBare.push(b);
    }
    results.first_paint = { page: stat(fcp), bare: stat(fcpBare) };
    log(`first paint p50 ${stat(fcp).p50} ms (bare page ${stat(fcpBare).p50} ms)`);

    // 2. Search as you type at STEPS steps.
    const corpus = join(ROOT, 'bench', '.data', `corpus-${STEPS}-s1`, 'questions.jsonl');
    const queries = (
      existsSync(corpus)
        ? readFileSync(corpus, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((l) => (JSON.parse(l) as { question: string }).question)
        : ['cors preflight', 'database migration', 'flaky test', 'retry backoff', 'memory leak']
    ).slice(0, Number(values.queries));
    const page = await ctx.newPage();
    await page.goto(`${big.base}/#token=${big.key}`);
    const box = page.getByLabel('Search sessions');
    const typed: number[] = [];
    const api: number[] = [];
    for (const q of queries) {
      await box.fill('');
      await page.locator('.hits > li').first().waitFor({ state: 'detached' });
      await box.pressSequentially(q, { delay: 15 });
      // Wait for the results of the whole query (earlier keystrokes' searches are aborted or superseded).
      await page
        .locator(`#main[data-search-q="${q.trim().replace(/["\\]/g, '\\$&')}"]`)
        .waitFor({ timeout: 30_000 });
      typed.push(Number(await page.evaluate("document.querySelector('#main').dataset.searchMs")));
      const t = performance.now();
      await fetch(`${big.base}/v1/search?${new URLSearchParams({ q, limit: '20' })}`, {
        headers: { authorization: `Bearer ${big.key}` },
      }).then((r) => r.text());
      api.push(performance.now() - t);
    }
    results.search = { typed_to_results: stat(typed), api_round_trip: stat(api) };
    log(`search: keystroke → results p50 ${stat(typed).p50} ms (API ${stat(api).p50} ms)`);

    // 3. Timeline of SESSIONS sessions.
    const tl: number[] = [];
    const tlApi: number[] = [];
    const p2 = await ctx.newPage();
    await p2.goto(`${many.base}/#token=${many.key}`);
    for (let i = 0; i < RUNS; i++) {
      // Away (to a view that sends no request) and back: a fresh fetch and render each run.
      await p2.evaluate("location.hash = '#/search'");
      await p2.evaluate(
        "delete document.querySelector('#main').dataset.timelineMs; location.hash = '#/timeline'",
      );
      await p2.locator('#main[data-timeline-ms]').waitFor({ timeout: 30_000 });
      tl.push(Number(await p2.evaluate("document.querySelector('#main').dataset.timelineMs")));
      const t = performance.now();
      await fetch(`${many.base}/v1/timeline`, { headers: { authorization: `Bearer ${many.key}` } }).then(
        (r) => r.text(),
      );
      tlApi.push(performance.now() - t);
    }
    const bars = await p2.locator('g.bar').count();
    results.timeline = { fetch_and_render: stat(tl), api_round_trip: stat(tlApi), days_drawn: bars };
    log(
      `timeline: ${SESSIONS} sessions on ${bars} days, fetch + render p50 ${stat(tl).p50} ms (API ${stat(tlApi).p50} ms)`,
    );
  } finally {
    await ctx.close();
    rmSync(profile, { recursive: true, force: true });
    big.child.kill('SIGTERM');
    many.child.kill('SIGTERM');
    bare.close();
  }
  mkdirSync(join(ROOT, 'bench', '.out'), { recursive: true });
  writeFileSync(join(ROOT, 'bench', '.out', 'web.json'), `${JSON.stringify(results, null, 2)}\n`);
  const r = results as {
    first_paint: { page: { p50: number; max: number }; bare: { p50: number } };
    search: { typed_to_results: { p50: number; p90: number; max: number }; api_round_trip: { p50: number } };
    timeline: { fetch_and_render: { p50: number; max: number }; api_round_trip: { p50: number } };
  };
  console.log(`| measure | p50 | p90 / max | baseline (same run) | ratio | goal |
|---|---|---|---|---|---|
| first paint, fresh context | ${r.first_paint.page.p50} ms | max ${r.first_paint.page.max} ms | bare one-line page ${r.first_paint.bare.p50} ms | ${round(r.first_paint.page.p50 / r.first_paint.bare.p50, 2)}× | ≤ 500 ms |
| search, last keystroke → results (${STEPS} steps) | ${r.search.typed_to_results.p50} ms | ${r.search.typed_to_results.p90} / ${r.search.typed_to_results.max} ms | GET /v1/search ${r.search.api_round_trip.p50} ms | ${round(r.search.typed_to_results.p50 / r.search.api_round_trip.p50, 2)}× | ≤ 100 ms |
| timeline, fetch + render (${SESSIONS} sessions) | ${r.timeline.fetch_and_render.p50} ms | max ${r.timeline.fetch_and_render.max} ms | GET /v1/timeline ${r.timeline.api_round_trip.p50} ms | ${round(r.timeline.fetch_and_render.p50 / r.timeline.api_round_trip.p50, 2)}× | ≤ 1000 ms |`);
}

await main();
