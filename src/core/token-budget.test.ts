import assert from 'node:assert/strict';
import { test } from 'node:test';
import { estimateTokens, type PackItem, type PackLayout, pack } from './token-budget.js';

/** A small deterministic PRNG (mulberry32) so the property test is reproducible. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function world(seed: number): { items: PackItem[]; layout: PackLayout } {
  const r = rng(seed);
  const items: PackItem[] = [];
  for (let tier = 0; tier < 4; tier++) {
    const n = Math.floor(r() * 12);
    for (let i = 0; i < n; i++) {
      const len = 5 + Math.floor(r() ** 3 * 900);
      items.push({
        tier,
        headers: tier === 1 ? ['t1', `t1:${i % 3}`] : [`t${tier}`],
        text: `- ${tier}.${i} ${'word '.repeat(len / 5)}\n`,
      });
    }
  }
  const footer = (omitted: number[]) => (omitted.length ? `\n_${omitted.length} left out._\n` : '');
  return {
    items,
    layout: {
      head: '# Context\n',
      headers: {
        t0: '\n## Rules\n',
        t1: '\n## WM\n',
        't1:0': '### a\n',
        't1:1': '### b\n',
        't1:2': '### c\n',
        t2: '\n## M\n',
        t3: '\n## S\n',
      },
      footer,
      worstFooter: footer(items.map((_, i) => i)),
    },
  };
}

const SHARES = { 1: 0.45, 2: 0.35, 3: 0.2 };
const wordCounter = (s: string) => s.split(/\s+/).filter(Boolean).length * 2 + 1;

test('property: never over budget, every item kept whole or listed as omitted, order kept', () => {
  for (let seed = 1; seed <= 300; seed++) {
    const { items, layout } = world(seed);
    for (const budget of [100, 137, 250, 600, 1500, 4000]) {
      for (const count of [undefined, wordCounter]) {
        const r = pack(items, layout, { budget, shares: SHARES, count });
        const c = count ?? estimateTokens;
        assert.ok(r.tokens <= budget, `seed ${seed} budget ${budget}: ${r.tokens}`);
        assert.equal(r.tokens, c(r.text));
        assert.deepEqual(
          [...r.selected, ...r.omitted].sort((a, b) => a - b),
          items.map((_, i) => i),
        );
        // Kept items appear whole and in input order; omitted ones not at all.
        let at = 0;
        for (const i of r.selected) {
          const found = r.text.indexOf(items[i].text, at);
          assert.ok(found >= at, `seed ${seed}: item ${i} missing or out of order`);
          at = found + items[i].text.length;
        }
        for (const i of r.omitted)
          assert.ok(!r.text.includes(items[i].text), `seed ${seed}: omitted ${i} present`);
        if (r.omitted.length) assert.match(r.text, new RegExp(`_${r.omitted.length} left out._`));
      }
    }
  }
});

test('tier 0 is served first: a rule that fits is never dropped for a later tier', () => {
  const layout: PackLayout = { head: '', headers: {}, footer: () => '', worstFooter: '' };
  const items: PackItem[] = [
    { tier: 0, headers: [], text: 'r'.repeat(200) },
    { tier: 0, headers: [], text: 'R'.repeat(2000) }, // too long: skipped, not cut
    { tier: 0, headers: [], text: 's'.repeat(100) },
    { tier: 1, headers: [], text: 'w'.repeat(150) },
    { tier: 2, headers: [], text: 'm'.repeat(50) },
  ];
  const r = pack(items, layout, { budget: 100, shares: SHARES });
  // 400 characters: both short rules (300), then the memory that still fits; the long rule is skipped.
  assert.deepEqual(r.selected, [0, 2, 4]);
  assert.deepEqual(r.omitted, [1, 3]);
  assert.ok(!r.text.includes('R'));
});

test('shares keep a lower tier from being crowded out; leftovers go back in priority order', () => {
  const layout: PackLayout = { head: '', headers: {}, footer: () => '', worstFooter: '' };
  const wm = Array.from(
    { length: 20 },
    (_, i): PackItem => ({ tier: 1, headers: [], text: `${i}`.padEnd(40, 'w') }),
  );
  const skills = Array.from(
    { length: 3 },
    (_, i): PackItem => ({ tier: 3, headers: [], text: `${i}`.padEnd(40, 's') }),
  );
  const r = pack([...wm, ...skills], layout, { budget: 200, shares: SHARES });
  assert.ok(
    r.selected.some((i) => i >= 20),
    'a skill got in',
  );
  assert.ok(r.tokens <= 200 && r.tokens >= 190, `the budget is used: ${r.tokens}`);
  // Alone, the working memory takes the whole budget in the second pass.
  const alone = pack(wm, layout, { budget: 200, shares: SHARES });
  assert.equal(alone.selected.length, 20);
});
