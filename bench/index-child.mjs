// Indexes a corpus in a fresh process with the built code (dist/, as users run it) and reports
// wall time, CPU time (user + system, every thread) and peak memory.
// Usage: node bench/index-child.mjs CORPUS_HOME DB_PATH [DIST_DIR]
// DIST_DIR runs another build's dist/ (the code before a change, built into a temporary folder).
// BENCH_MEMORY_LOG=FILE writes the main thread's memory every 5 s of the run, one JSON line each
// (MB: rss, V8 heap used, Buffers and other memory outside the heap), to see what holds the RSS.
// Measure a new user's first index with an empty TAPEDECK_HOME: a home whose archive is already
// filled skips the compression a first index does.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [home, db, distArg] = process.argv.slice(2);
const dist = pathToFileURL(distArg ?? join(import.meta.dirname, '..', 'dist')).href;
const { loadConfig } = await import(`${dist}/app/config.js`);
const { createEngine } = await import(`${dist}/app/engine.js`);
// TAPEDECK_HOME and TAPEDECK_ARCHIVE pass through (bench/archive.ts compares archiving off and on).
const pass = Object.fromEntries(
  ['TAPEDECK_HOME', 'TAPEDECK_ARCHIVE'].filter((k) => process.env[k]).map((k) => [k, process.env[k]]),
);
const engine = createEngine(loadConfig({ db }, { HOME: home, ...pass }));
const t = performance.now();
const cpu = process.cpuUsage();
const memoryLog = process.env.BENCH_MEMORY_LOG;
let nextSample = 0;
const mb = (n) => Math.round(n / 1048576);
const onProgress = memoryLog
  ? (done, total, _path, bytes) => {
      const at = performance.now() - t;
      if (at < nextSample && done < total) return;
      nextSample = at + 5000;
      const m = process.memoryUsage();
      const line = {
        s: Math.round(at / 1000),
        done,
        total,
        readMB: mb(bytes),
        rss: mb(m.rss),
        heapUsed: mb(m.heapUsed),
        heapTotal: mb(m.heapTotal),
        external: mb(m.external),
        arrayBuffers: mb(m.arrayBuffers),
      };
      appendFileSync(memoryLog, `${JSON.stringify(line)}\n`);
    }
  : undefined;
const summary = engine.transcripts.index(onProgress ? { onProgress } : undefined);
const ms = performance.now() - t;
const used = process.cpuUsage(cpu);
engine.close();
const maxRssMB = process.resourceUsage().maxRSS / 1024;
process.stdout.write(
  `${JSON.stringify({ ms, cpuMs: (used.user + used.system) / 1000, maxRssMB, files: summary.files, steps: summary.steps, issues: summary.issues })}\n`,
);
