import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseQuery } from '../core/query.js';
import { createLexicalScorer } from './lexical.js';

const stats = { total: 1000, avgChars: 80, df: [50, 50, 50] };

test("the query's adjacent words side by side in a text score above the same words apart", () => {
  const score = createLexicalScorer(parseQuery('inventory sync reconciliation'), stats);
  const together = score('The inventory sync reconciliation runs nightly now.', 51, '');
  const apart = score('The sync of stock runs nightly; inventory reconciliation too.', 61, '');
  assert.ok(together.text > apart.text, `${together.text} <= ${apart.text}`);
  // Stems and hyphens count: "inventory-syncing" is the pair.
  const hyphen = score('The inventory-syncing reconciliation runs nightly now.', 53, '');
  assert.ok(hyphen.text > apart.text);
  // Coverage is about words, not pairs.
  assert.equal(together.coverage, 1);
  assert.equal(apart.coverage, 1);
});
