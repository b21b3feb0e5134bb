import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildHandoff, requestText } from './handoff.js';
import { renderHandoff } from './handoff-render.js';
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

describe('handoff sections', () => {
  it('strip acknowledgements from requests', () => {
    assert.equal(requestText('Thanks. Run the suite again.'), 'Run the suite again.');
    assert.equal(requestText('ok, great!'), '');
    assert.equal(requestText('Good catch, fix it'), 'Good catch, fix it');
  });

  it('build Goal, Decisions, Files, Risks and Next from a session', () => {
    n = 0;
    const P = '/home/dev/shop';
    const steps = [
      step('user', 'prompt', 'Prices are stale after a promotion ends. Find out why and fix it.'),
      step('assistant', 'response', "I'll look at the cache first."),
      call('edit', `${P}/src/cache.ts`),
      result('edit', `${P}/src/cache.ts`, 'The file has been updated.'),
      call('bash', 'npx tsc --noEmit'),
      result('bash', 'npx tsc --noEmit', "[error] src/cache.ts(3,1): error TS2304: Cannot find name 'lru'."),
      step(
        'assistant',
        'response',
        'We decided to use an in-process LRU instead of Redis because invalidation kept missing imports.',
      ),
      call('edit', `${P}/src/cache.ts`),
      result('edit', `${P}/src/cache.ts`, 'The file has been updated.'),
      call('replace', `${P}/src/failed.ts`),
      result('replace', `${P}/src/failed.ts`, '[error] old_string not found'),
      call('write', `${P}/docs/adr/0007.md`),
      result('write', `${P}/docs/adr/0007.md`, 'File created'),
      call('bash', 'npx tsc --noEmit && npm test'),
      result('bash', 'npx tsc --noEmit && npm test', 'ℹ pass 86\nℹ fail 0'),
      call('bash', 'npm run deploy:staging'),
      result('bash', 'npm run deploy:staging', 'Error: missing FLY_API_TOKEN'),
      step(
        'assistant',
        'response',
        'Done. The cache is replaced. TODO: remove REDIS_URL from the helm chart.',
      ),
      step('user', 'prompt', 'Thanks. Prices are stale after a promotion ends. Find out why and fix it.'),
      step('user', 'prompt', 'Great. Now also purge the CDN when a promotion ends.'),
      call('todowrite', ''),
      step(
        'assistant',
        'tool_call',
        'todowrite {"todos":[{"content":"Purge CDN on promotion end","status":"in_progress","activeForm":"Purging"},{"content":"Replace cache","status":"completed"}]}',
        'todowrite',
      ),
      step('assistant', 'response', 'Looking at the CDN client now.'),
    ];
    const h = buildHandoff(steps, { project: P });
    assert.deepEqual(
      h.goal.map((g) => g.text),
      [
        'Prices are stale after a promotion ends. Find out why and fix it.',
        'Now also purge the CDN when a promotion ends.',
      ],
    );
    assert.deepEqual(h.decisions, [
      {
        text: 'We decided to use an in-process LRU instead of Redis because invalidation kept missing imports.',
        step: 6,
      },
    ]);
    assert.deepEqual(h.files, [
      { path: 'src/cache.ts', edits: 2, step: 7 },
      { path: 'docs/adr/0007.md', edits: 1, step: 11 },
    ]);
    // tsc failed then passed later (settled); the deploy failed and was never retried.
    assert.deepEqual(
      h.risks.map((r) => r.text),
      [
        '`src/failed.ts` failed: old_string not found',
        '`npm run deploy:staging` failed: Error: missing FLY_API_TOKEN',
        'TODO: remove REDIS_URL from the helm chart.',
      ],
    );
    assert.deepEqual(
      h.next.map((x) => x.text),
      [
        'Unfinished request: Now also purge the CDN when a promotion ends.',
        'Open todo: Purge CDN on promotion end',
      ],
    );
    const md = renderHandoff(h, {
      title: 'Handoff: stale prices',
      thread: 'claude-code:s1',
      agent: 'claude-code',
    });
    assert.match(md, /^# Handoff: stale prices\n/);
    assert.match(md, /## Files\n- `src\/cache.ts` \(2 edits\)\n- `docs\/adr\/0007.md`/);
    assert.match(md, /## Decisions\n- We decided .* \(#6\)/);
  });

  it('treat a request followed by a completion as answered, and say so when a section is empty', () => {
    n = 0;
    const steps = [
      step('user', 'prompt', 'Rename the helper.'),
      step('assistant', 'response', 'Done: renamed and committed.'),
    ];
    const h = buildHandoff(steps);
    assert.deepEqual(h.next, []);
    assert.match(renderHandoff(h, { title: 'T', thread: 'x' }), /## Next\n- none found/);
  });

  it("report the real error line of a long output, never Tapedeck's own truncation marker", () => {
    n = 0;
    const head = 'building 120 modules\n'.repeat(30);
    const steps = [
      step('user', 'prompt', 'Build the shop.'),
      call('bash', 'npm run build'),
      result(
        'bash',
        'npm run build',
        `${head}[… 1843 more characters of output; error lines:]\nTypeError: Cannot read properties of undefined (reading 'map')`,
      ),
      call('bash', 'npm test'),
      result('bash', 'npm test', `${head}[… truncated 512 more characters]`),
    ];
    const h = buildHandoff(steps);
    assert.deepEqual(
      h.risks.map((r) => r.text),
      ["`npm run build` failed: TypeError: Cannot read properties of undefined (reading 'map')"],
    );
  });

  it('a confirmation after a finished task does not reopen it', () => {
    n = 0;
    const steps = [
      step('user', 'prompt', 'Add the refund endpoint'),
      step('assistant', 'response', 'Refund endpoint added; all tests pass.'),
      step('user', 'prompt', 'Thanks, that works.'),
    ];
    assert.deepEqual(buildHandoff(steps).next, []);
    assert.equal(requestText('that works, now add the refund test'), 'now add the refund test');
    assert.equal(requestText('works on the API too?'), 'works on the API too?');
  });
});
