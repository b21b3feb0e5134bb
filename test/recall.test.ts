/**
 * Plain questions over the bundled sample sessions (examples/home, laid out as a real $HOME) find
 * the step that answers them, and the provenance points at the transcript line holding it.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { loadConfig } from '../src/app/config.js';
import { createEngine, type Engine } from '../src/app/engine.js';
import { tempHome } from './support/home.js';

const EXAMPLES = join(import.meta.dirname, '..', 'examples', 'home');
let engine: Engine;
let cleanup: () => void;

before(() => {
  const h = tempHome();
  cleanup = h.cleanup;
  engine = createEngine(loadConfig({}, { ...h.env, HOME: EXAMPLES }));
  const summary = engine.transcripts.index();
  assert.equal(summary.issues, 0);
});
after(() => {
  engine?.close();
  cleanup?.();
});

/** The transcript line a hit points at. */
function lineAt(path: string, line: number): string {
  return readFileSync(path, 'utf8').split('\n')[line - 1] ?? '';
}

const CASES: { q: string; agent: string; line: RegExp }[] = [
  {
    q: 'why did we drop the redis cache?',
    agent: 'claude-code',
    line: /drop.{0,40}Redis|Redis.{0,80}(stale|invalidation)/i,
  },
  {
    q: 'what caused the ERR_SOCKET_TIMEOUT in the stripe webhook',
    agent: 'claude-code',
    line: /ERR_SOCKET_TIMEOUT|socket/i,
  },
  { q: 'why did we move the tests from jest to node:test', agent: 'codex', line: /node:test/ },
  { q: 'how did we fix the flaky order_total_rounding test', agent: 'codex', line: /order_total_rounding/ },
  {
    q: 'why postgres full text search instead of elasticsearch',
    agent: 'antigravity',
    line: /Elasticsearch/,
  },
  { q: 'checkout CORS preflight failure', agent: 'antigravity', line: /cors/i },
  { q: 'knex or plain sql files for migrations', agent: 'gemini-cli', line: /plain SQL/i },
];

for (const c of CASES) {
  test(`"${c.q}" finds the answering step with its transcript line`, () => {
    const r = engine.transcripts.search(c.q, { limit: 3 });
    const hit = r.hits.find((h) => h.agent === c.agent && c.line.test(lineAt(h.source.path, h.source.line)));
    assert.ok(
      hit,
      `no answering step in the top 3: ${JSON.stringify(r.hits.map((h) => [h.agent, h.source.line, h.snippet]))}`,
    );
    assert.ok(hit.source.path.startsWith(EXAMPLES));
    assert.match(hit.snippet, /«[^»]+»/, 'the snippet marks the matched words');
  });
}

test('a question whose words are all common still answers (no AND of every word)', () => {
  const r = engine.transcripts.search('what did we decide about the tests and why', { limit: 5 });
  assert.ok(r.hits.length > 0);
});
