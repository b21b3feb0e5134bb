/**
 * A second process for the concurrent-append contract test: its own engine (its own SQLite
 * handle or PostgreSQL connection, from TAPEDECK_HOME / TAPEDECK_DATABASE_URL), warmed up first, then
 * one append at an agreed instant so two of these race for real. Prints the result as JSON, or
 * `{"error": {code, details}}`.
 *
 * argv: <thread> <batch.json> <startAtMs> [expectedMessageCount]
 */
import { readFileSync } from 'node:fs';
import { loadConfig } from '../../src/app/config.js';
import { createEngine } from '../../src/app/engine.js';
import { isTapedeckError } from '../../src/core/errors.js';

const [thread, file, startAt, expected] = process.argv.slice(2);
const engine = createEngine(loadConfig({}, process.env as Record<string, string>));
try {
  const messages = JSON.parse(readFileSync(file!, 'utf8'));
  engine.savedThreads.get(thread!); // connect and migrate before the start line
  const wait = Number(startAt) - Date.now();
  if (wait > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, wait);
  try {
    const r = engine.savedThreads.append({
      thread: thread!,
      messages,
      expectedMessageCount: expected === undefined ? undefined : Number(expected),
    });
    process.stdout.write(`${JSON.stringify(r)}\n`);
  } catch (e) {
    if (!isTapedeckError(e)) throw e;
    process.stdout.write(`${JSON.stringify({ error: { code: e.code, details: e.details } })}\n`);
  }
} finally {
  engine.close();
}
