/**
 * Issue 9: the `step` users and agents see is the agent's own number — Antigravity's
 * `step_index` — stable while the file grows, also for an appended step; the finer internal order
 * (one native step holds reasoning, text and tool calls) never leaves the store. Real files, the
 * real CLI, on SQLite (and PostgreSQL through test/postgres when it runs these suites).
 */
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { tapedeck } from './support/cli.js';
import { tempHome } from './support/home.js';

const CONV = '6b1e0f3a-2c4d-4e8f-9a17-53d2c8e4b901';
const REL = `.gemini/antigravity/brain/${CONV}/.system_generated/logs/transcript_full.jsonl`;
const FIXTURE = join(
  import.meta.dirname,
  '..',
  'src',
  'sources',
  'antigravity',
  'fixtures',
  'brain',
  CONV,
  '.system_generated',
  'logs',
  'transcript_full.jsonl',
);
const THREAD = `antigravity:${CONV}`;

function ok(args: string[], env: Record<string, string>) {
  const r = tapedeck(args, env);
  assert.equal(r.status, 0, `tapedeck ${args.join(' ')}: ${r.stderr}${r.stdout}`);
  return r.json();
}

test('an Antigravity step keeps its step_index as its step, also when appended; no internal order leaks', () => {
  const h = tempHome();
  after(h.cleanup);
  const path = join(h.home, REL);
  mkdirSync(dirname(path), { recursive: true });
  // The recorded fixture ends in a half-written line (a real trap); start from its whole lines.
  const text = readFileSync(FIXTURE, 'utf8');
  writeFileSync(path, text.slice(0, text.lastIndexOf('\n') + 1));
  ok(['index', '--json'], h.env);

  // Native step 9 is a planner response: reasoning, visible text and a run_command call.
  const nine = ok(['show', THREAD, '--step', '9', '--window', '0', '--json'], h.env);
  assert.deepEqual(
    nine.steps.map((s: { step: number; kind: string }) => [s.step, s.kind]),
    [
      [9, 'reasoning'],
      [9, 'response'],
      [9, 'tool_call'],
    ],
  );
  const all = ok(['show', THREAD, '--limit', '500', '--json'], h.env).steps;
  for (const s of all) assert.equal('seq' in s, false, 'no internal order in the contract');
  assert.ok(
    all.every((s: { step: number }) => s.step <= 40),
    `steps are native numbers: ${all.map((s: { step: number }) => s.step)}`,
  );

  // Appended: step_index 40, a response and a tool call, then its result as step 41.
  appendFileSync(
    path,
    `${JSON.stringify({ step_index: 40, source: 'MODEL', type: 'PLANNER_RESPONSE', status: 'DONE', created_at: '2026-03-09T09:20:00Z', content: 'Now tagging the zanzibar release.', tool_calls: [{ name: 'run_command', args: { CommandLine: JSON.stringify('git tag v2.4.0-zanzibar') } }] })}\n${JSON.stringify({ step_index: 41, source: 'SYSTEM', type: 'RUN_COMMAND', status: 'DONE', created_at: '2026-03-09T09:20:05Z', content: 'tag created' })}\n`,
  );
  const grown = ok(['index', '--json'], h.env);
  assert.equal(grown.files.updated, 1);
  const hit = ok(['search', 'zanzibar release', '--json'], h.env).hits[0];
  assert.deepEqual([hit.thread, hit.step], [THREAD, 40]);
  const around = ok(['show', THREAD, '--step', '40', '--window', '1', '--json'], h.env).steps;
  assert.deepEqual(around.map((s: { step: number; kind: string }) => [s.step, s.kind]).slice(-3), [
    [40, 'response'],
    [40, 'tool_call'],
    [41, 'tool_result'],
  ]);

  // Paging never splits a step and `next` is a step number users can pass back.
  const seen: string[] = [];
  let from = 0;
  for (let page = 0; page < 100; page++) {
    const r = ok(['show', THREAD, '--from', String(from), '--limit', '2', '--json'], h.env);
    for (const s of r.steps) seen.push(`${s.step}:${s.kind}:${s.source.line}`);
    if (r.next === null) break;
    assert.ok(r.next > r.steps.at(-1).step);
    from = r.next;
  }
  const whole = ok(['show', THREAD, '--limit', '500', '--json'], h.env).steps.map(
    (s: { step: number; kind: string; source: { line: number } }) => `${s.step}:${s.kind}:${s.source.line}`,
  );
  assert.deepEqual(seen, whole, 'pages add up to the thread, nothing twice, nothing skipped');
});
