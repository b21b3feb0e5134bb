/**
 * Working memory on every backend: what the briefing says, determinism, staleness (the store
 * fingerprint), edits that survive regeneration, days and spaces; and one scripted sequence whose
 * Markdown must be identical on SQLite and PostgreSQL.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isTapedeckError } from '../../src/core/errors.js';
import type { BackendKind } from '../../src/ports/stores.js';
import { BACKENDS, POSTGRES } from '../support/backends.js';
import {
  BLOG,
  SHOP,
  sameDayStart,
  seedSessions,
  type WmWorld,
  wmWorld,
  writeSession,
} from '../support/wm-world.js';

const DAY = 86_400_000;

/** A home on `kind` and a working-memory service over its store whose clock the test moves. */
const world = (kind: BackendKind, config?: Record<string, unknown>, now = Date.now()): WmWorld =>
  wmWorld({}, config, kind, now);

const section = (md: string, heading: string) => {
  const m = new RegExp(`## ${heading}(?: \\(edited\\))?\\n([\\s\\S]*?)(?=\\n\\n## |\\n?$)`).exec(md);
  return m ? m[1] : null;
};
const invalid = (fn: () => Promise<unknown>, re: RegExp) =>
  assert.rejects(fn, (e) => isTapedeckError(e) && e.code === 'INVALID_INPUT' && re.test(e.message));

for (const b of BACKENDS) {
  const opts = { skip: b.skip };

  test(
    `the briefing: focus, decisions, open loops and sessions, each with a deep link (${b.name})`,
    opts,
    async (t) => {
      const w = world(b.name);
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

      const br = await w.wm.read();
      assert.equal(br.regenerated, 'new');
      assert.deepEqual(
        br.sections.map((s) => s.name),
        ['focus', 'decisions', 'open-loops', 'sessions'],
      );
      const focus = section(br.markdown, 'Focus')!;
      assert.match(
        focus.split('\n')[0]!,
        /^- ~\/dev\/acme-shop|^- \/home\/dev\/acme-shop/,
        'most active first',
      );
      assert.match(
        focus,
        /acme-shop: 2 sessions, 1 memory; last active \d{4}-\d{2}-\d{2} <tapedeck:\/\/thread\/claude-code:shop-2>/,
      );
      assert.match(focus, /blog: 1 session; last active/);
      const decisions = br.sections[1]!.items;
      assert.equal(decisions[0]!.link, dec.link, 'decision memories come first');
      assert.ok(
        decisions.some(
          (d) => d.link === 'tapedeck://thread/claude-code:shop-1#1' && /integer cents/.test(d.text),
        ),
        'a decision statement of a recent session, linked to its step',
      );
      assert.ok(decisions.some((d) => /borrow checker/.test(d.text) && d.text.endsWith('(blog)')));
      const loops = br.sections[2]!.items.map((i) => [i.text, i.link]);
      assert.deepEqual(loops[0], [`Plan: ${plan.content}`, plan.link], 'the most important plan first');
      assert.ok(
        loops.some(([text]) => text === 'Plan: Move CI to Buildkite instead'),
        'the superseding plan',
      );
      assert.ok(
        !loops.some(([text]) => /GitHub Actions|Astro/.test(text!)),
        'no superseded or forgotten plan',
      );
      assert.ok(
        loops.some(
          ([text, link]) =>
            /^Unfinished request: Add a test for the VAT edge case/.test(text!) &&
            link === 'tapedeck://thread/claude-code:shop-2#0',
        ),
        'an unanswered last request',
      );
      assert.ok(!loops.some(([text]) => /rounding|lifetimes/.test(text!)), 'answered requests are not open');
      const sessions = br.sections[3]!.items;
      assert.deepEqual(
        sessions.map((s) => s.link),
        [
          'tapedeck://thread/claude-code:shop-2',
          'tapedeck://thread/claude-code:blog-1',
          'tapedeck://thread/claude-code:shop-1',
        ],
      );
      assert.match(
        sessions[0]!.text,
        /^\d{4}-\d{2}-\d{2} · Add a test for the VAT edge case · claude-code · /,
      );
      for (const s of br.sections)
        for (const i of s.items) assert.match(i.link ?? '', /^tapedeck:\/\/(memory|thread)\//);
      assert.ok(br.markdown.startsWith(`# Working memory · ${br.date} · space default\n\n## Focus\n`));
      // Stored: the next read serves it as is.
      const stored = (await w.engine.stores.workingMemory.get('default', br.date))!;
      assert.deepEqual(
        stored.sections.map((s) => s.section),
        ['focus', 'decisions', 'open-loops', 'sessions'],
      );
      assert.deepEqual(stored.sections[2]!.items, br.sections[2]!.items);
      assert.equal((await w.wm.read()).markdown, br.markdown);
    },
  );

  test(`determinism: the same store and day give byte-identical Markdown (${b.name})`, opts, async (t) => {
    const w = world(b.name);
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

  test(
    `staleness: regenerated when new, when the store changed, when over an hour old (${b.name})`,
    opts,
    async (t) => {
      const w = world(b.name, undefined, sameDayStart(62));
      t.after(w.close);
      seedSessions(w.h, w.engine);
      assert.equal((await w.wm.read()).regenerated, 'new');
      assert.equal((await w.wm.read()).regenerated, null, 'nothing changed: the stored one');

      const m = w.engine.memories.add({ content: 'Ship the VAT fix behind a flag', type: 'decision' });
      const cached = await w.wm.read({ regenerate: false });
      assert.equal(cached.stale, true, 'a cached read says it is behind');
      assert.ok(!cached.markdown.includes('VAT fix behind a flag'));
      const fresh = await w.wm.read();
      assert.equal(fresh.regenerated, 'store-changed');
      assert.equal(fresh.stale, false);
      assert.ok(fresh.markdown.includes('Ship the VAT fix behind a flag'));

      // Every kind of memory change moves the fingerprint.
      const fp = () => w.engine.stores.workingMemory.fingerprint('default', '2000-01-01');
      let before = await fp();
      w.engine.memories.forget(m.id);
      assert.notEqual(await fp(), before, 'forget');
      before = await fp();
      w.engine.memories.restore(m.id);
      assert.notEqual(await fp(), before, 'restore');
      before = await fp();
      w.engine.memories.supersede(m.id, { content: 'Ship the VAT fix without a flag' });
      assert.notEqual(await fp(), before, 'supersede');
      before = await fp();
      w.engine.memories.add({ content: 'Another space entirely', space: 'elsewhere' });
      assert.equal(typeof (await fp()), 'string'); // another space's memory may move the global row id: either way
      assert.equal((await w.wm.read()).regenerated, 'store-changed');

      writeSession(w.h, 'shop-3', SHOP, [['user', 'Bump the lockfile', 1]]);
      w.engine.transcripts.index();
      assert.equal((await w.wm.read()).regenerated, 'store-changed', 'a new session changes the store too');

      w.clock.now += 59 * 60_000;
      assert.equal((await w.wm.read()).regenerated, null);
      w.clock.now += 2 * 60_000;
      assert.equal((await w.wm.read()).regenerated, 'expired');
      assert.equal(w.wm.maxAgeMinutes, 60);
    },
  );

  test(`a person's edit survives regeneration of the others, until reset (${b.name})`, opts, async (t) => {
    const w = world(b.name);
    t.after(w.close);
    seedSessions(w.h, w.engine);
    await w.wm.read();
    const r = await w.wm.edit({
      section: 'Open loops',
      text: '- Call Ana about the invoice <tapedeck://memory/x>\n- Renew the TLS cert',
    });
    assert.deepEqual(r.changed, ['open-loops']);
    const edited = r.sections.find((s) => s.name === 'open-loops')!;
    assert.equal(edited.edited, true);
    assert.deepEqual(
      edited.items.map((i) => [i.text, i.link, i.source]),
      [
        ['Call Ana about the invoice <tapedeck://memory/x>', 'tapedeck://memory/x', 'edit'],
        ['Renew the TLS cert', null, 'edit'],
      ],
    );
    assert.match(r.markdown, /## Open loops \(edited\)\n- Call Ana about the invoice/);
    assert.deepEqual(
      (
        await w.wm.edit({
          section: 'open-loops',
          text: '- Call Ana about the invoice <tapedeck://memory/x>\n- Renew the TLS cert',
        })
      ).changed,
      [],
      'the same edit again changes nothing',
    );
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
    // The generated items are still stored under the edit.
    const stored = (await w.engine.stores.workingMemory.get('default', after.date))!;
    const loops = stored.sections.find((s) => s.section === 'open-loops')!;
    assert.ok(loops.edit?.startsWith('- Call Ana'));
    assert.ok(loops.items.some((i) => /Write the release notes/.test(i.text)));
    assert.deepEqual(
      w.engine.stores.catalog.workingMemoryEdits('default').map((e) => [e.day, e.section]),
      [[after.date, 'open-loops']],
    );

    // refresh keeps it; refresh --reset drops it and the generated section comes back.
    assert.match((await w.wm.refresh()).markdown, /Call Ana/);
    const reset = await w.wm.refresh({ reset: ['open-loops'] });
    assert.deepEqual(reset.reset, ['open-loops']);
    assert.equal(reset.sections[2]!.edited, false);
    assert.match(section(reset.markdown, 'Open loops')!, /Plan: Write the release notes/);
    assert.deepEqual(w.engine.stores.catalog.workingMemoryEdits('default'), []);
    // Dropping an edit that is not there changes nothing (and leaves no empty row).
    const store = w.engine.stores.workingMemory;
    assert.equal(await store.setEdit('default', after.date, 'open-loops', null, 'later'), false);
    assert.equal(await store.setEdit('default', '2020-01-01', 'focus', null, 'later'), false);
    assert.equal(await store.get('default', '2020-01-01'), undefined);
    assert.equal(await store.setEdit('default', after.date, 'focus', 'x', 'later'), true);
    assert.equal(await store.setEdit('default', after.date, 'focus', 'x', 'later'), false);
  });

  test(`editing a whole briefing takes only the sections that changed (${b.name})`, opts, async (t) => {
    const w = world(b.name);
    t.after(w.close);
    seedSessions(w.h, w.engine);
    const br = await w.wm.read();
    assert.deepEqual(
      (await w.wm.edit({ text: br.markdown })).changed,
      [],
      'an unchanged file changes nothing',
    );
    const edited = br.markdown.replace(/## Focus\n[\s\S]*?\n\n/, '## Focus\n- Only the shop this week ✓\n\n');
    const r = await w.wm.edit({ text: edited });
    assert.deepEqual(r.changed, ['focus']);
    assert.deepEqual(
      r.sections.map((s) => s.edited),
      [true, false, false, false],
    );
    // The file read back (with its "(edited)" mark) is stable…
    assert.deepEqual((await w.wm.edit({ text: r.markdown })).changed, []);
    // …and the generated text put back removes the edit.
    const back = await w.wm.edit({ text: br.markdown });
    assert.deepEqual(back.changed, ['focus']);
    assert.equal(back.sections[0]!.edited, false);
    assert.equal(back.markdown, br.markdown);
  });

  test(`bad edits and dates are refused; secrets in an edit are redacted (${b.name})`, opts, async (t) => {
    const w = world(b.name);
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
    assert.equal(
      await w.engine.stores.workingMemory.get('default', new Date(w.clock.now).toISOString().slice(0, 10)),
      undefined,
    );
    const r = await w.wm.edit({
      section: 'focus',
      text: '- deploy with token ghp_abcdefghijklmnopqrstuvwxyz0123456789',
    });
    assert.doesNotMatch(r.markdown, /ghp_abcdef/);
    assert.match(r.markdown, /\[REDACTED/);
  });

  test(`another day and another space: their own window and edits (${b.name})`, opts, async (t) => {
    const w = world(b.name, { spaces: { [BLOG]: 'writing' } });
    t.after(w.close);
    seedSessions(w.h, w.engine);
    w.engine.memories.add({ content: 'Publish on Tuesdays', type: 'decision', space: 'writing' });
    w.engine.memories.add({ content: 'Use Stripe Checkout', type: 'decision', space: 'default' });
    w.engine.memories.add({ content: 'Write the release notes', type: 'plan' });
    await w.wm.edit({ section: 'focus', text: '- today only' });
    const today = (await w.wm.read()).date;
    const yesterday = await w.wm.read({ date: 'yesterday' });
    assert.notEqual(yesterday.date, today);
    assert.equal(yesterday.sections[0]!.edited, false, 'edits are per day');
    const longAgo = await w.wm.read({ date: '2020-01-01' });
    assert.equal(longAgo.date, '2020-01-01');
    assert.equal(section(longAgo.markdown, 'Recent decisions'), '- none recorded in the last 7 days');
    assert.equal(section(longAgo.markdown, 'Recent sessions'), '- none in the last 7 days');
    assert.equal(section(longAgo.markdown, 'Open loops'), '- none', 'a plan made later is not open then');
    assert.deepEqual(w.engine.stores.catalog.workingMemoryDays('default'), [
      today,
      yesterday.date,
      '2020-01-01',
    ]);

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
    assert.equal(section((await w.wm.read({ space: 'writing' })).markdown, 'Focus'), '- words');
    assert.equal(section((await w.wm.read()).markdown, 'Focus'), '- today only');
    assert.equal((await w.wm.read({ space: 'writing' })).sections[0]!.edited, true);
    assert.equal((await w.wm.read({ space: 'default', date: 'yesterday' })).sections[0]!.edited, false);
    assert.deepEqual(w.engine.stores.catalog.workingMemoryDays('writing'), [today]);
  });

  test(`a section given with its own heading is taken without it (${b.name})`, opts, async (t) => {
    const w = world(b.name);
    t.after(w.close);
    const r = await w.wm.edit({ section: 'open-loops', text: '## Open loops\n- Call Ana' });
    assert.equal(r.sections[2]!.markdown, '- Call Ana');
    await invalid(
      () => w.wm.edit({ section: 'open-loops', text: '## Focus\n- x' }),
      /cannot hold a "## " heading/,
    );
  });
}

/** Both runs of the script share one day (memories are stamped by the real clock). */
const SCRIPT_NOW = Date.now();

/** One scripted day on `kind`: every Markdown it produced, memory ids made neutral. */
async function script(kind: BackendKind): Promise<string[]> {
  const now = SCRIPT_NOW;
  const w = world(kind, undefined, now);
  try {
    writeSession(
      w.h,
      'shop-1',
      SHOP,
      [
        ['user', 'Fix the rounding bug', 300],
        ['assistant', 'We decided to store money as integer cents. Done.', 299],
      ],
      now,
    );
    writeSession(w.h, 'blog-1', BLOG, [['user', 'Draft the lifetimes post', 120]], now);
    w.engine.transcripts.index();
    w.engine.memories.add({ content: 'Adopt Vitest', type: 'decision', eventStart: '2026-07-14' });
    w.engine.memories.add({ content: 'Keep 100% of the _old_ API', type: 'decision' });
    w.engine.memories.add({ content: 'Write the release notes', type: 'plan', importance: 0.7 });
    const out = [(await w.wm.read()).markdown];
    out.push((await w.wm.edit({ section: 'focus', text: '- ünïcode focus, 100% _done_' })).markdown);
    w.engine.memories.add({ content: 'Ship on Fridays', type: 'decision' });
    out.push((await w.wm.read()).markdown, (await w.wm.read({ date: 'yesterday' })).markdown);
    out.push((await w.wm.refresh({ reset: 'focus' })).markdown);
    return out.map((md) =>
      md.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>'),
    );
  } finally {
    w.close();
  }
}

test('the same scripted day gives the same briefings on SQLite and PostgreSQL', {
  skip: POSTGRES.skip,
}, async () => {
  const sqlite = await script('sqlite');
  assert.deepEqual(await script('postgres'), sqlite);
  assert.match(sqlite[1]!, /## Focus \(edited\)\n- ünïcode focus, 100% _done_/);
  assert.match(sqlite[2]!, /Ship on Fridays/);
  assert.match(sqlite[2]!, /Plan: Write the release notes/);
  assert.doesNotMatch(sqlite[4]!, /\(edited\)/);
});
