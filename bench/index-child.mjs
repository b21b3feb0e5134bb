// Indexes a corpus in a fresh process with the built code (dist/, as users run it) and reports
// wall time and peak memory. Usage: node bench/index-child.mjs CORPUS_HOME DB_PATH
import { loadConfig } from '../dist/app/config.js';
import { createEngine } from '../dist/app/engine.js';

const [home, db] = process.argv.slice(2);
// TAPEDECK_HOME and TAPEDECK_ARCHIVE pass through (bench/archive.ts compares archiving off and on).
const pass = Object.fromEntries(
  ['TAPEDECK_HOME', 'TAPEDECK_ARCHIVE'].filter((k) => process.env[k]).map((k) => [k, process.env[k]]),
);
const engine = createEngine(loadConfig({ db }, { HOME: home, ...pass }));
const t = performance.now();
const summary = engine.transcripts.index();
const ms = performance.now() - t;
engine.close();
const maxRssMB = process.resourceUsage().maxRSS / 1024;
process.stdout.write(
  `${JSON.stringify({ ms, maxRssMB, files: summary.files, steps: summary.steps, issues: summary.issues })}\n`,
);
