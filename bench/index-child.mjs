// Indexes a corpus in a fresh process with the built code (dist/, as users run it) and reports
// wall time, CPU time (user + system, every thread) and peak memory.
// Usage: node bench/index-child.mjs CORPUS_HOME DB_PATH [DIST_DIR]
// DIST_DIR runs another build's dist/ (the code before a change, built into a temporary folder).
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
const summary = engine.transcripts.index();
const ms = performance.now() - t;
const used = process.cpuUsage(cpu);
engine.close();
const maxRssMB = process.resourceUsage().maxRSS / 1024;
process.stdout.write(
  `${JSON.stringify({ ms, cpuMs: (used.user + used.system) / 1000, maxRssMB, files: summary.files, steps: summary.steps, issues: summary.issues })}\n`,
);
