import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildReanchor, compactionSteps } from './reanchor.js';
import { estimateTokens } from './token-budget.js';
import type { Role, Step, StepKind } from './types.js';

let n = 0;
const step = (role: Role, kind: StepKind, text: string, tool?: string, target?: string): Step => ({
  step: n++,
  role,
  kind,
  text,
  tool,
  target,
  source: { path: '/t.jsonl', line: n },
});
const call = (tool: string, target: string) =>
  step('assistant', 'tool_call', `${tool} ${target}`, tool, target);
const result = (tool: string, target: string, text: string) =>
  step('tool', 'tool_result', text, tool, target);
const P = '/home/dev/shop';
const T = 'claude-code:s1';

function session(): Step[] {
  n = 0;
  return [
    step('system', 'summary', 'Stale prices after promotions'),
    step('user', 'prompt', 'Prices are stale after a promotion ends. Find out why and fix it.'),
    call('read', `${P}/src/promo.ts`),
    result('read', `${P}/src/promo.ts`, 'export function endPromotion() {}'),
    step(
      'assistant',
      'response',
      'We decided to invalidate the price cache in endPromotion() because the TTL is a day.',
    ),
    call('edit', `${P}/src/cache.ts`),
    result('edit', `${P}/src/cache.ts`, 'The file has been updated.'),
    call(
      'todowrite',
      '{"todos":[{"content":"Invalidate cache on promotion end","status":"completed"},{"content":"Add a regression test","status":"in_progress"}]}',
    ),
    call('bash', 'npx tsc --noEmit'),
    result('bash', 'npx tsc --noEmit', "src/cache.ts(3,1): error TS2304: Cannot find name 'lru'."),
    call('bash', 'npm test'),
    result('bash', 'npm test', '# pass 41\n# fail 0'),
    step('user', 'prompt', 'Thanks. Now also cover the cart total in the test, it shows the old price.'),
    step(
      'system',
      'summary',
      `This session is being continued from a previous conversation.\n${'x'.repeat(300)}`,
    ),
    step('user', 'prompt', 'continue'),
    call('bash', 'git status'),
  ];
}

describe('re-anchor', () => {
  it('finds the compaction, not the title-like summary at the top', () => {
    assert.deepEqual(compactionSteps(session()), [13]);
  });

  it('names the latest ask, the task, plan, decision, files, commands and errors before the compaction', () => {
    const r = buildReanchor(session(), { thread: T, project: P });
    assert.equal(r.compacted_at, 13);
    assert.equal(r.steps, 13);
    assert.equal(r.ask?.text, 'Now also cover the cart total in the test, it shows the old price.');
    assert.equal(r.ask?.open, true);
    assert.equal(r.ask?.step, 12);
    assert.match(r.task?.text ?? '', /Prices are stale/);
    assert.deepEqual(
      r.plan.map((p) => p.status),
      ['completed', 'in_progress'],
    );
    assert.match(r.decisions[0].text, /decided to invalidate the price cache .* because the TTL/);
    assert.deepEqual(
      r.files.map((f) => [f.path, f.edits]),
      [
        ['src/cache.ts', 1],
        ['src/promo.ts', 0],
      ],
    );
    assert.deepEqual(
      r.commands.map((c) => [c.command, c.outcome]),
      [
        ['npx tsc --noEmit', 'failed'],
        ['npm test', 'ok'],
      ],
    );
    assert.match(r.errors[0].text, /npx tsc --noEmit.*TS2304/);
    // Nothing after the compaction: `git status` ran after it.
    assert.ok(!r.commands.some((c) => c.command === 'git status'));
    for (const needle of [
      '"Now also cover the cart total',
      '[>] Add a regression test',
      '`src/cache.ts` edited',
      '`npx tsc --noEmit` → failed: src/cache.ts(3,1): error TS2304',
      '`npm test` → ok',
      `#N is the step tapedeck://thread/${T}#N`,
      'the old price." #12',
      'because the TTL is a day',
    ])
      assert.ok(r.text.includes(needle), `${needle} in\n${r.text}`);
    assert.ok(r.tokens <= 600 && r.tokens === estimateTokens(r.text));
    assert.equal(r.omitted, 0);
  });

  it('keeps what matters most within a tight budget, and says how much was left out', () => {
    const r = buildReanchor(session(), { thread: T, project: P, budget: 160 });
    assert.ok(r.tokens <= 160, `${r.tokens} tokens`);
    assert.ok(r.omitted > 0);
    assert.match(r.text, /Now also cover the cart total/);
    assert.match(r.text, /more left out: tapedeck reanchor claude-code:s1 --budget 320/);
    // With a word counter the text is re-checked against that counter.
    const words = (s: string) => s.split(/\s+/).filter(Boolean).length;
    assert.ok(buildReanchor(session(), { thread: T, budget: 40, count: words }).tokens <= 40);
  });

  it('reads the whole thread when there was no compaction, or up to a given step', () => {
    const whole = buildReanchor(session().slice(0, 12), { thread: T });
    assert.equal(whole.compacted_at, undefined);
    assert.equal(whole.ask?.step, 1);
    assert.equal(whole.ask?.open, true, 'no answer after it reports it done');
    assert.equal(whole.commands.length, 2);
    const early = buildReanchor(session(), { thread: T, before: 5 });
    assert.equal(early.compacted_at, 5);
    assert.deepEqual(early.commands, []);
    assert.deepEqual(
      early.files.map((f) => f.path),
      [`${P}/src/promo.ts`],
    );
  });
});
