/** The context bundle: budget guarantee, priorities, reasons and links, relevance, spaces, bad input. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Engine } from '../src/app/engine.js';
import { isTapedeckError } from '../src/core/errors.js';
import { estimateTokens } from '../src/core/token-budget.js';
import { BLOG, SHOP, seedSessions, wmWorld, writeSession } from './support/wm-world.js';

function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS =
  'cache retry invoice ledger queue shard token lambda cursor schema webhook payload batch index'.split(' ');
const sentence = (r: () => number, n: number) =>
  Array.from({ length: n }, () => WORDS[Math.floor(r() * WORDS.length)]).join(' ');

/** Rules of every size (some longer than small budgets), memories in three places, skills. */
async function fill(engine: Engine): Promise<void> {
  const r = rng(42);
  for (let i = 0; i < 12; i++) {
    const scope =
      i % 4 === 0
        ? 'agent:claude-code'
        : i % 4 === 1
          ? `project:${SHOP}`
          : i % 4 === 2
            ? 'global'
            : 'space:work';
    await engine.rules.add({
      body: `Rule ${i}: ${sentence(r, 5 + Math.floor(r() ** 2 * 600))}.`,
      scope,
      priority: Math.floor(r() * 5),
    });
  }
  for (let i = 0; i < 60; i++) {
    const project = i % 3 === 0 ? SHOP : i % 3 === 1 ? BLOG : undefined;
    engine.memories.add({
      content: `Memory ${i} ${sentence(r, 8 + Math.floor(r() * 80))}`,
      type: i % 7 === 0 ? 'decision' : 'fact',
      importance: Math.round(r() * 100) / 100,
      project,
    });
  }
  for (let i = 0; i < 10; i++)
    engine.skills.add({
      name: `skill-${i}`,
      description: `Use when ${sentence(r, 6 + i * 3)}`,
      body: '# Steps\n1. go',
    });
}

test('property: never over budget, rules whole and in order, every candidate either kept or listed as left out', async (t) => {
  const w = wmWorld();
  t.after(w.close);
  seedSessions(w.h, w.engine);
  await fill(w.engine);
  const order = (await w.engine.rules.resolve({ agent: 'claude-code', project: SHOP })).rules;
  assert.ok(order.length >= 8);
  const r = rng(7);
  const budgets = [
    100,
    101,
    150,
    333,
    1500,
    5000,
    100_000,
    ...Array.from({ length: 40 }, () => 100 + Math.floor(r() * 4000)),
  ];
  for (const budget of budgets) {
    const b = await w.engine.contextBundle.build({ agent: 'claude-code', project: SHOP, budget });
    assert.equal(b.budget, budget);
    assert.ok(b.tokens <= budget, `budget ${budget}: ${b.tokens} tokens`);
    assert.equal(b.tokens, estimateTokens(b.markdown));

    const keys = [...b.items, ...b.omitted].map((x) => `${x.kind}:${x.id}`);
    assert.equal(new Set(keys).size, keys.length, 'nothing both kept and left out');
    assert.deepEqual(
      [...b.items, ...b.omitted]
        .filter((x) => x.kind === 'rule')
        .map((x) => x.id)
        .sort(),
      order.map((x) => x.id).sort(),
      'every applicable rule is accounted for',
    );
    const kept = b.items.filter((x) => x.kind === 'rule').map((x) => x.id);
    assert.deepEqual(
      kept,
      order.map((x) => x.id).filter((id) => kept.includes(id)),
      'rules in resolve order',
    );
    let at = 0;
    for (const id of kept) {
      const body = order.find((x) => x.id === id)!.body;
      const found = b.markdown.indexOf(body.replace(/\n/g, '\n  '), at);
      assert.ok(found >= at, `rule ${id} whole and in order`);
      at = found;
    }
    for (const o of b.omitted) {
      assert.match(o.reason, /needs [\d,]+ tokens, [\d,]+ left/);
      if (o.kind === 'rule') {
        assert.match(o.reason, /^rule too long for the budget, not cut/);
        assert.ok(
          !b.markdown.includes(order.find((x) => x.id === o.id)!.body.slice(0, 40)),
          'no part of a left-out rule',
        );
      }
    }
    for (const i of b.items) {
      assert.ok(i.reason.length > 0 && i.tokens > 0);
      assert.match(i.link, /^tapedeck:\/\/(rule|memory|thread|skill|working-memory)\//);
    }
    if (b.omitted.length) assert.match(b.markdown, /_Left out for the [\d,]+-token budget: .+\._\n$/);
    else assert.doesNotMatch(b.markdown, /Left out/);
  }
  // A big budget takes everything in; a small one still has the rules that fit first.
  const all = await w.engine.contextBundle.build({ agent: 'claude-code', project: SHOP, budget: 100_000 });
  assert.equal(all.omitted.length, 0);
  assert.deepEqual(
    all.items.filter((x) => x.kind === 'rule').map((x) => x.id),
    order.map((x) => x.id),
  );
  assert.deepEqual(
    [...new Set(all.items.map((x) => x.kind))],
    ['rule', 'working_memory', 'memory', 'skill'],
    'Markdown order: rules, working memory, memories, skills',
  );
});

test('an exact token counter can be plugged in, and the guarantee holds for it', async (t) => {
  const w = wmWorld();
  t.after(w.close);
  seedSessions(w.h, w.engine);
  await fill(w.engine);
  const words = (s: string) => s.split(/\s+/).filter(Boolean).length * 2;
  for (const budget of [100, 250, 700, 1500, 3000]) {
    const b = await w.engine.contextBundle.build({ project: SHOP, budget, countTokens: words });
    assert.ok(b.tokens <= budget, `${b.tokens} > ${budget}`);
    assert.equal(b.tokens, words(b.markdown));
  }
});

test('same inputs, same bundle; each item says why it is there', async (t) => {
  const w = wmWorld();
  t.after(w.close);
  seedSessions(w.h, w.engine);
  await w.engine.rules.add({ body: 'Use pnpm, never npm.', priority: 2 });
  await w.engine.rules.add({ body: 'Run the shop tests before committing.', scope: `project:${SHOP}` });
  await w.engine.rules.add({ body: 'Codex only.', scope: 'agent:codex' });
  const near = w.engine.memories.add({
    content: 'The shop staging DB is db-stage-2',
    project: SHOP,
    importance: 0.9,
  });
  const wide = w.engine.memories.add({ content: 'Prefer small pull requests', importance: 0.5 });
  const far = w.engine.memories.add({ content: 'The blog deploys to Netlify', project: BLOG, importance: 1 });
  const dec = w.engine.memories.add({
    content: 'We chose Postgres for orders',
    type: 'decision',
    project: SHOP,
  });
  w.engine.skills.add({
    name: 'release-notes',
    description: 'Use when writing release notes',
    body: '# Notes',
  });

  const input = { agent: 'claude-code', project: SHOP };
  const a = await w.engine.contextBundle.build(input);
  const b = await w.engine.contextBundle.build(input);
  assert.equal(a.markdown, b.markdown);
  assert.deepEqual(a.items, b.items);

  const rules = a.items.filter((i) => i.kind === 'rule');
  assert.deepEqual(
    rules.map((r) => r.title),
    ['Use pnpm, never npm.', 'Run the shop tests before committing.'],
  );
  assert.equal(rules[0].reason, 'applies: global, priority 2');
  assert.equal(rules[1].reason, `applies: project ${SHOP}`);

  const mems = a.items.filter((i) => i.kind === 'memory');
  assert.deepEqual(
    mems.map((m) => m.id),
    [near.id, wide.id],
    'the project first, then space-wide; another project not at all',
  );
  assert.match(mems[0].reason, /^this project, importance 0.9, updated \d{4}-\d{2}-\d{2}/);
  assert.match(mems[1].reason, /^space-wide/);
  assert.ok(!a.markdown.includes(far.content));
  assert.equal(
    a.markdown.split(dec.link).length,
    2,
    'a decision in the briefing is not repeated as a memory',
  );

  const skill = a.items.find((i) => i.kind === 'skill')!;
  assert.deepEqual([skill.id, skill.link], ['release-notes', 'tapedeck://skill/release-notes']);
  assert.match(
    a.markdown,
    /## Skills[^\n]*\n- release-notes \[(Draft|Checked|Proven)\]: Use when writing release notes\n/,
  );
  const wmItem = a.items.find((i) => i.kind === 'working_memory' && i.id === 'sessions:1')!;
  assert.equal(wmItem.link, 'tapedeck://thread/claude-code:shop-2');
  assert.equal(wmItem.reason, 'working memory, Recent sessions');
  assert.match(a.markdown, /^# Session context · claude-code · \/home\/dev\/acme-shop · space default\n/);
});

test('relevance: a subdirectory counts as the project; importance orders memories of the same standing', async (t) => {
  const w = wmWorld();
  t.after(w.close);
  for (let i = 0; i < 80; i++)
    w.engine.memories.add({ content: `Shop note ${i} on caching`, project: SHOP, importance: 0.1 });
  const key = w.engine.memories.add({
    content: 'Never deploy the shop on Fridays',
    project: `${SHOP}/api`,
    importance: 1,
  });
  w.engine.memories.add({
    content: 'A lookalike path is another project',
    project: `${SHOP}-old`,
    importance: 1,
  });
  const b = await w.engine.contextBundle.build({ project: SHOP, budget: 400 });
  const mems = b.items.filter((i) => i.kind === 'memory');
  assert.equal(mems[0].id, key.id);
  assert.match(mems[0].reason, /^this project, importance 1,/);
  assert.doesNotMatch(b.markdown, /lookalike/);
  assert.ok(
    b.omitted.some((o) => o.kind === 'memory'),
    'the rest is listed as left out',
  );
  assert.ok(
    b.omitted.filter((o) => o.kind === 'memory').length + mems.length <= 25,
    'at most 25 memory candidates',
  );
});

test("spaces: a bundle sees only its space's rules, memories, skills and briefing", async (t) => {
  const w = wmWorld();
  t.after(w.close);
  await w.engine.rules.add({ body: 'Work rule.', scope: 'space:work' });
  await w.engine.rules.add({ body: 'Everyone rule.' });
  w.engine.memories.add({ content: 'Work memory about invoices', space: 'work' });
  w.engine.memories.add({ content: 'Default memory about the cat', space: 'default' });
  w.engine.skills.add({ name: 'work-skill', description: 'Use at work', body: 'x', space: 'work' });
  const work = await w.engine.contextBundle.build({ space: 'work' });
  const def = await w.engine.contextBundle.build({});
  assert.equal(work.space, 'work');
  assert.match(work.markdown, /Work rule\.[\s\S]*Everyone rule\.|Everyone rule\.[\s\S]*Work rule\./);
  assert.match(work.markdown, /Work memory about invoices/);
  assert.match(work.markdown, /work-skill/);
  assert.doesNotMatch(work.markdown, /cat/);
  assert.match(def.markdown, /Default memory about the cat/);
  assert.doesNotMatch(def.markdown, /Work rule|invoices|work-skill/);
});

test('bad budgets, agents and projects are INVALID_INPUT', async (t) => {
  const w = wmWorld();
  t.after(w.close);
  const bad = (input: Record<string, unknown>, re: RegExp) =>
    assert.rejects(
      () => w.engine.contextBundle.build(input),
      (e) => isTapedeckError(e) && e.code === 'INVALID_INPUT' && re.test(e.message),
    );
  for (const budget of [99, 100_001, 0, -5, 1.5, 'lots', '1e3x'])
    await await bad({ budget }, /budget must be a whole number of tokens from 100 to 100,000/);
  await await bad(
    { agent: 'gpt-5' },
    /Unknown agent "gpt-5"; known: antigravity, claude-code, codex, gemini-cli/,
  );
  await await bad({ project: 'relative/dir' }, /absolute directory/);
  await await bad({ space: 'Bad Space' }, /Invalid space/);
  assert.equal((await w.engine.contextBundle.build({ budget: '2,000' })).budget, 2000);
  assert.equal((await w.engine.contextBundle.build({})).budget, 1500);
});

test("a project's bundle: no other project's sessions, no decision a memory superseded, no finished task as open", async (t) => {
  const w = wmWorld();
  t.after(w.close);
  seedSessions(w.h, w.engine);
  writeSession(w.h, 'shop-3', SHOP, [
    ['user', 'Add the refund endpoint', 30],
    ['assistant', 'Refund endpoint added; all tests pass.', 29],
    ['user', 'Thanks, that works.', 28],
  ]);
  w.engine.transcripts.index();
  // The session's "integer cents" decision was captured as a memory, then superseded.
  const cents = w.engine.memories.add({
    content: 'Money is integer cents',
    type: 'decision',
    project: SHOP,
    thread: 'claude-code:shop-1',
    steps: '1-1',
  });
  const decimal = w.engine.memories.supersede(cents.id, { content: 'Money is stored as Decimal(12,2)' });

  const b = await w.engine.contextBundle.build({ project: SHOP, budget: 3000 });
  assert.doesNotMatch(b.markdown, /blog|Rust lifetimes|borrow checker/i, 'nothing of the other project');
  assert.match(b.markdown, /Add the refund endpoint · claude-code/, "this project's sessions stay");
  assert.doesNotMatch(b.markdown, /integer cents/, 'the superseded decision is gone');
  assert.match(b.markdown, new RegExp(`Money is stored as Decimal\\(12,2\\) <${decimal.link}>`));
  assert.doesNotMatch(b.markdown, /Unfinished request: (that works|Add the refund endpoint)/);
  assert.match(b.markdown, /Unfinished request: Add a test for the VAT edge case/);

  // Without a project the briefing still covers the whole space.
  assert.match((await w.engine.contextBundle.build({ budget: 3000 })).markdown, /Rust lifetimes/);
});
