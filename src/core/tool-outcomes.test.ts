import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { commandHeads, failureLine, outcomeKeys } from './tool-outcomes.js';

describe('tool outcomes', () => {
  it('read failures from the [error] marker and from command error lines', () => {
    assert.equal(
      failureLine('[error] Error: the TargetContent was not found', 'replace_file_content'),
      'Error: the TargetContent was not found',
    );
    assert.equal(
      failureLine("src/a.ts(4,23): error TS2307: Cannot find module './x.js'\nFound 1 error.", 'bash'),
      "src/a.ts(4,23): error TS2307: Cannot find module './x.js'",
    );
    assert.equal(failureLine('Tests: 1 failed, 11 passed', 'shell'), 'Tests: 1 failed, 11 passed');
    assert.equal(failureLine('ℹ pass 86\nℹ fail 0\nfound 0 vulnerabilities\n0 errors', 'bash'), undefined);
    // File contents mention errors all the time; only the marker counts for them.
    assert.equal(failureLine('throw new Error("boom")', 'read'), undefined);
  });

  it('name the commands of a shell line by their first words', () => {
    assert.deepEqual(commandHeads('git rm -q src/cache/redis-cache.ts && npx tsc --noEmit'), [
      'git rm',
      'npx tsc',
    ]);
    assert.deepEqual(commandHeads('CI=1 time npm test -- src/api.test.ts 2>&1 | tail -5'), ['npm test']);
    assert.deepEqual(commandHeads('npm run build && npm run lint'), ['npm run build', 'npm run lint']);
  });

  it('key results by command for shells and by file otherwise', () => {
    assert.deepEqual(outcomeKeys('bash', 'npx tsc --noEmit && npm test'), ['cmd:npx tsc', 'cmd:npm test']);
    assert.deepEqual(outcomeKeys('apply_patch', 'src/a.ts, src/b.ts'), [
      'target:src/a.ts',
      'target:src/b.ts',
    ]);
    assert.deepEqual(outcomeKeys('todowrite', undefined), ['tool:todowrite']);
  });
});
