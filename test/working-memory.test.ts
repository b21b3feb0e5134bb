/** Working memory: what the briefing says, determinism, staleness, edits that survive, spaces. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isTapedeckError } from '../src/core/errors.js';
import {
  BLOG,
  SHOP,
  sameDayStart,
  seedSessions,
  type WmWorld,
  wmWorld,
  writeSession,
} from './support/wm-world.js';

const world = (...args: Parameters<typeof wmWorld>): WmWorld => wmWorld(...args);
const DAY = 86_400_000;

const section = (md: string, heading: string) => {
  const m = new RegExp(`## ${heading}(?: \\(edited\\))?\\n([\\s\\S]*?)(?=\\n\\n## |\\n?$)`).exec(md);
  return m ? m[1] : null;
};
const invalid = (fn: () => Promise<unknown>, re: RegExp) =>
  assert.rejects(fn, (e) => isTapedeckError(e) && e.code === 'INVALID_INPUT' && re.test(e.message));

test('the briefing: focus by activity, decisions, open loops and sessions, each with a deep link', async (t) => {
  const w = world();
  t.after(w.close);
  seedSessions(w.h, w.engine);
  const dec = w.engine.memories.add({
    content: 'We chose Postgres over MySQL for orders',
    type: 'decision',
    project: SHOP,
  });
  const plan = w.engine.memories.add({
    content: 'Migrate billing to Stripe this quarter',
    type: 'plan',
    importance: 0.9,
  });
  const old = w.engine.memories.add({ content: 'Move CI to GitHub Actions', type: 'plan' });
  w.engine.memories.supersede(old.id, { content: 'Move CI to Buildkite instead' });
  const gone = w.engine.memories.add({ content: 'Rewrite the blog in Astro', type: 'plan' });
  w.engine.memories.forget(gone.id);

  const b = await w.wm.read();
  assert.equal(b.regenerated, 'new');
  assert.deepEqual(
    b.sections.map((s) => s.name),
    ['focus', 'decisions', 'open-loops', 'sessions'],
  );
  const focus = section(b.markdown, 'Focus')!;
  assert.match(focus.split('\n')[0], /^- ~\/dev\/acme-shop|^- \/home\/dev\/acme-shop/);
  assert.match(
    focus,
    /acme-shop: 2 sessions, 1 memory; last active \d{4}-\d{2}-\d{2} <tapedeck:\/\/thread\/claude-code:shop-2>/,
  );
  assert.match(focus, /blog: 1 session; last active/);

  const decisions = b.sections[1].items;
  assert.equal(decisions[0].link, dec.link, 'decision memories come first');
  assert.ok(
    decisions.some(
      (d) => d.link === 'tapedeck://thread/claude-code:shop-1#1' && /integer cents/.test(d.text),
    ),
    'a decision statement of a recent session, linked to its step',
  );
  assert.ok(decisions.some((d) => /borrow checker/.test(d.text) && d.text.endsWith('(blog)')));

  const loops = b.sections[2].items.map((i) => [i.text, i.link]);
  assert.deepEqual(loops[0], [`Plan: ${plan.content}`, plan.link], 'the most important plan first');
  assert.ok(
    loops.some(([text]) => text === 'Plan: Move CI to Buildkite instead'),
    'the superseding plan',
  );
  assert.ok(!loops.some(([text]) => /GitHub Actions|Astro/.test(text!)), 'no superseded or forgotten plan');
  assert.ok(
    loops.some(
      ([text, link]) =>
        /^Unfinished request: Add a test for the VAT edge case/.test(text!) &&
        link === 'tapedeck://thread/claude-code:shop-2#0',
    ),
    'an unanswered last request',
  );
  assert.ok(!loops.some(([text]) => /rounding|lifetimes/.test(text!)), 'answered requests are not open');

  const sessions = b.sections[3].items;
  assert.deepEqual(
    sessions.map((s) => s.link),
    [
      'tapedeck://thread/claude-code:shop-2',
      'tapedeck://thread/claude-code:blog-1',
      'tapedeck://thread/claude-code:shop-1',
    ],
  );
  assert.match(sessions[0].text, /^\d{4}-\d{2}-\d{2} · Add a test for the VAT edge case · claude-code · /);
  for (const s of b.sections)
    for (const i of s.items) assert.match(i.link ?? '', /^tapedeck:\/\/(memory|thread)\//);
  assert.ok(b.markdown.startsWith(`# Working memory · ${b.date} · space default\n\n## Focus\n`));
});

test('determinism: the same store and day give byte-identical Markdown, whenever in the day it is made', async (t) => {
  const w = world();
  t.after(w.close);
  seedSessions(w.h, w.engine);
  w.engine.memories.add({ content: 'Use pnpm workspaces', type: 'decision', project: BLOG });
  w.engine.memories.add({ content: 'Try Bun for scripts', type: 'plan' });
  const dayStart = Math.floor(w.clock.now / DAY) * DAY;
  w.clock.now = dayStart + 60_000;
  const early = await w.wm.refresh();
  w.clock.now = dayStart + DAY - 60_000;
  const late = await w.wm.refresh();
  assert.equal(late.date, early.date);
  assert.notEqual(late.generated_at, early.generated_at);
  assert.equal(late.markdown, early.markdown);
  assert.equal(
    JSON.stringify(late.sections.map((s) => s.items)),
    JSON.stringify(early.sections.map((s) => s.items)),
  );
  assert.doesNotMatch(early.markdown, /T\d\d:\d\d/, 'no generation time in the Markdown');
});

test('staleness: regenerated when new, when the store changed, when over an hour old; else served', async (t) => {
  const w = world();
  t.after(w.close);
  w.clock.now = sameDayStart(62);
  seedSessions(w.h, w.engine);
  assert.equal((await w.wm.read()).regenerated, 'new');
  assert.equal((await w.wm.read()).regenerated, null, 'nothing changed: the stored one');

  w.engine.memories.add({ content: 'Ship the VAT fix behind a flag', type: 'decision' });
  const cached = await w.wm.read({ regenerate: false });
  assert.equal(cached.stale, true, 'a cached read says it is behind');
  assert.ok(!cached.markdown.includes('VAT fix behind a flag'));
  const fresh = await w.wm.read();
  assert.equal(fresh.regenerated, 'store-changed');
  assert.equal(fresh.stale, false);
  assert.ok(fresh.markdown.includes('Ship the VAT fix behind a flag'));

  writeSession(w.h, 'shop-3', SHOP, [['user', 'Bump the lockfile', 1]]);
  w.engine.transcripts.index();
  assert.equal((await w.wm.read()).regenerated, 'store-changed', 'a new session changes the store too');

  w.clock.now += 59 * 60_000;
  assert.equal((await w.wm.read()).regenerated, null);
  w.clock.now += 2 * 60_000;
  assert.equal((await w.wm.read()).regenerated, 'expired');
  assert.equal(w.wm.maxAgeMinutes, 60);
});

test("a person's edit of a section survives regeneration of the others, until reset", async (t) => {
  const w = world();
  t.after(w.close);
  seedSessions(w.h, w.engine);
  await w.wm.read();
  const r = await w.wm.edit({
    section: 'Open loops',
    text: '- Call Ana about the invoice <tapedeck://memory/x>\n- Renew the TLS cert',
  });
  assert.deepEqual(r.changed, ['open-loops']);
  const loops = r.sections.find((s) => s.name === 'open-loops')!;
  assert.equal(loops.edited, true);
  assert.deepEqual(
    loops.items.map((i) => [i.text, i.link, i.source]),
    [
      ['Call Ana about the invoice <tapedeck://memory/x>', 'tapedeck://memory/x', 'edit'],
      ['Renew the TLS cert', null, 'edit'],
    ],
  );
  assert.match(r.markdown, /## Open loops \(edited\)\n- Call Ana about the invoice/);

  // The store changes: other sections regenerate, the edit stays.
  w.engine.memories.add({ content: 'Adopt Vitest for the shop', type: 'decision' });
  w.engine.memories.add({ content: 'Write the release notes', type: 'plan' });
  const after = await w.wm.read();
  assert.equal(after.regenerated, 'store-changed');
  assert.match(section(after.markdown, 'Recent decisions')!, /Adopt Vitest/);
  assert.equal(
    section(after.markdown, 'Open loops'),
    '- Call Ana about the invoice <tapedeck://memory/x>\n- Renew the TLS cert',
  );
  assert.doesNotMatch(after.markdown, /Write the release notes/);

  // refresh keeps it; refresh --reset drops it and the generated section comes back.
  assert.match((await w.wm.refresh()).markdown, /Call Ana/);
  const reset = await w.wm.refresh({ reset: ['open-loops'] });
  assert.deepEqual(reset.reset, ['open-loops']);
  assert.equal(reset.sections[2].edited, false);
  assert.match(section(reset.markdown, 'Open loops')!, /Plan: Write the release notes/);
});

test('editing a whole briefing takes only the sections that changed; putting back the generated text drops the edit', async (t) => {
  const w = world();
  t.after(w.close);
  seedSessions(w.h, w.engine);
  const b = await w.wm.read();
  assert.deepEqual((await w.wm.edit({ text: b.markdown })).changed, [], 'an unchanged file changes nothing');

  const edited = b.markdown.replace(/## Focus\n[\s\S]*?\n\n/, '## Focus\n- Only the shop this week\n\n');
  const r = await w.wm.edit({ text: edited });
  assert.deepEqual(r.changed, ['focus']);
  assert.deepEqual(
    r.sections.map((s) => s.edited),
    [true, false, false, false],
  );
  // The file read back (with its "(edited)" mark) is stable…
  assert.deepEqual((await w.wm.edit({ text: r.markdown })).changed, []);
  // …and the generated text put back removes the edit.
  const back = await w.wm.edit({ text: b.markdown });
  assert.deepEqual(back.changed, ['focus']);
  assert.equal(back.sections[0].edited, false);
  assert.equal(back.markdown, b.markdown);
});

test('bad edits and dates are refused, naming the problem', async (t) => {
  const w = world();
  t.after(w.close);
  await invalid(() => w.wm.edit({ section: 'todos', text: 'x' }), /Unknown working-memory section "todos"/);
  await invalid(() => w.wm.edit({ section: 'focus', text: '   ' }), /empty.*--reset focus/);
  await invalid(
    () => w.wm.edit({ section: 'focus', text: 'a\n## Sneaky\nb' }),
    /cannot hold a "## " heading/,
  );
  await invalid(() => w.wm.edit({ section: 'focus', text: 'x'.repeat(20_001) }), /over 20,000 characters/);
  await invalid(() => w.wm.edit({ text: '## Focus\n- a\n## Focus\n- b' }), /appears twice/);
  await invalid(() => w.wm.read({ date: '2026-02-30' }), /Invalid date "2026-02-30"/);
  await invalid(() => w.wm.read({ date: 'last week' }), /Invalid date/);
  await invalid(() => w.wm.read({ date: '2999-01-01' }), /in the future/);
  await invalid(() => w.wm.refresh({ reset: 'everything' }), /Unknown working-memory section/);
  await invalid(() => w.wm.read({ space: 'Not A Space' }), /Invalid space/);
  // A secret in an edit is redacted before it is stored.
  const r = await w.wm.edit({
    section: 'focus',
    text: '- deploy with token ghp_abcdefghijklmnopqrstuvwxyz0123456789',
  });
  assert.doesNotMatch(r.markdown, /ghp_abcdef/);
  assert.match(r.markdown, /\[REDACTED/);
});

test('another day: its own window and its own edits', async (t) => {
  const w = world();
  t.after(w.close);
  seedSessions(w.h, w.engine);
  w.engine.memories.add({ content: 'Keep the monorepo', type: 'decision' });
  await w.wm.edit({ section: 'focus', text: '- today only' });
  const yesterday = await w.wm.read({ date: 'yesterday' });
  assert.notEqual(yesterday.date, (await w.wm.read()).date);
  assert.equal(yesterday.sections[0].edited, false, 'edits are per day');
  const longAgo = await w.wm.read({ date: '2020-01-01' });
  assert.equal(longAgo.date, '2020-01-01');
  assert.equal(section(longAgo.markdown, 'Recent decisions'), '- none recorded in the last 7 days');
  assert.equal(section(longAgo.markdown, 'Recent sessions'), '- none in the last 7 days');
  assert.equal(section(longAgo.markdown, 'Open loops'), '- none', 'a plan made later is not open then');
});

test('spaces: memories and sessions stay in their space; a mapped project brings its sessions along', async (t) => {
  const w = world({}, { spaces: { [BLOG]: 'writing' } });
  t.after(w.close);
  seedSessions(w.h, w.engine);
  w.engine.memories.add({ content: 'Publish on Tuesdays', type: 'decision', space: 'writing' });
  w.engine.memories.add({ content: 'Use Stripe Checkout', type: 'decision', space: 'default' });

  const def = await w.wm.read();
  const writing = await w.wm.read({ space: 'writing' });
  assert.equal(writing.space, 'writing');
  assert.match(def.markdown, /Use Stripe Checkout/);
  assert.doesNotMatch(def.markdown, /Publish on Tuesdays|lifetimes|blog-1/);
  assert.match(writing.markdown, /Publish on Tuesdays/);
  assert.match(writing.markdown, /Write the draft about Rust lifetimes/);
  assert.doesNotMatch(writing.markdown, /Stripe|acme-shop|shop-\d/);
  // Edits are per space too.
  await w.wm.edit({ section: 'focus', text: '- words', space: 'writing' });
  assert.equal((await w.wm.read()).sections[0].edited, false);
});

test('a section given with its own heading is taken without it', async (t) => {
  const w = world();
  t.after(w.close);
  const r = await w.wm.edit({ section: 'open-loops', text: '## Open loops\n- Call Ana' });
  assert.equal(r.sections[2].markdown, '- Call Ana');
  await invalid(
    () => w.wm.edit({ section: 'open-loops', text: '## Focus\n- x' }),
    /cannot hold a "## " heading/,
  );
});
