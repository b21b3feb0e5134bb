import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { asksToSave, userRequestText } from './save-intent.js';

describe('save intent', () => {
  it('recognises requests to remember or save', () => {
    for (const t of [
      'Remember that staging uses db-stage-2',
      'please save this decision to tapedeck',
      "Don't forget: we pin pnpm 9",
      'note that down for later',
      'add this to your memory',
      'Write that down.',
      'make a handoff before I switch machines',
      'merk dir das bitte',
      '记住这个配置',
    ])
      assert.equal(asksToSave(t), true, t);
  });

  it('does not read ordinary work as a request to save', () => {
    for (const t of [
      'Make POST /api/orders idempotent',
      'fix the failing test in save-order.ts',
      'why does the cache forget entries?',
      'refactor the memory allocator',
    ])
      assert.equal(asksToSave(t), false, t);
  });

  it("takes the user's words out of Antigravity's wrappers", () => {
    const c =
      '<USER_REQUEST>\nRemember the deploy key rotates monthly\n</USER_REQUEST>\n<ADDITIONAL_METADATA>\nsave this time\n</ADDITIONAL_METADATA>';
    assert.equal(userRequestText(c), 'Remember the deploy key rotates monthly');
  });
});
