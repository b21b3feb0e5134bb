/**
 * Incremental indexing against real files and a real SQLite store: growth is read from the saved
 * offset, nothing changed means nothing parsed, rewrites and deletions are followed, and
 * half-written lines wait.
 */
import assert from 'node:assert/strict';
import { appendFileSync, rmSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { after, test } from 'node:test';
import { claudeLine, claudePath, tempHome } from './support/home.js';

const S1 = '11111111-2222-4333-8444-555555555555';
const S2 = '66666666-7777-4888-9999-000000000000';

test('a second run does nothing; an appended line is picked up alone', async () => {
  const h = tempHome();
  after(h.cleanup);
  const lines = [
    claudeLine(S1, 'user', 'Why are product prices stale after a promotion ends?'),
    claudeLine(
      S1,
      'assistant',
      'The Redis cache keeps the old price until the TTL expires; invalidation misses promotions.',
    ),
    claudeLine(S1, 'user', 'Then drop the Redis cache and use an in-process LRU.'),
  ];
  const path = h.write(claudePath(S1), `${lines.join('\n')}\n`);
  const engine = h.engine();
  try {
    const first = engine.transcripts.index();
    assert.equal(first.files.new, 1);
    assert.equal(first.steps.written, 3);

    const second = engine.transcripts.index();
    assert.deepEqual([second.files.unchanged, second.files.updated, second.steps.written], [1, 0, 0]);

    appendFileSync(
      path,
      `${claudeLine(S1, 'assistant', 'Done: removed ioredis and added lru-cache with a 60 second TTL.')}\n`,
    );
    const third = engine.transcripts.index();
    assert.deepEqual([third.files.updated, third.steps.written], [1, 1]);
    const shown = engine.transcripts.show({ thread: `claude-code:${S1}` });
    assert.equal(shown.steps.length, 4);
    assert.deepEqual(
      shown.steps.map((s) => s.source.line),
      [1, 2, 3, 4],
    );
    const hit = (await engine.transcripts.search('lru-cache ttl')).hits[0];
    assert.equal(hit.step, 3);
    assert.equal(hit.source.line, 4);
  } finally {
    engine.close();
  }
});

test('a half-written last line waits, then is indexed exactly once', async () => {
  const h = tempHome();
  after(h.cleanup);
  const full = claudeLine(
    S1,
    'assistant',
    'The webhook times out because the Stripe client has no keep-alive agent.',
  );
  const path = h.write(
    claudePath(S1),
    `${claudeLine(S1, 'user', 'Why does the payment webhook time out?')}\n`,
  );
  appendFileSync(path, full.slice(0, 60));
  const engine = h.engine();
  try {
    engine.transcripts.index();
    assert.equal(engine.transcripts.show({ thread: `claude-code:${S1}` }).steps.length, 1);
    appendFileSync(path, `${full.slice(60)}\n`);
    const run = engine.transcripts.index();
    assert.equal(run.steps.written, 1);
    engine.transcripts.index({ full: false });
    const steps = engine.transcripts.show({ thread: `claude-code:${S1}` }).steps;
    assert.equal(steps.length, 2);
    assert.match(steps[1].text, /keep-alive agent/);
    // Once: the reply itself (the question before it holds its head as neighbour text, too).
    const hits = (await engine.transcripts.search('keep-alive agent')).hits;
    assert.equal(hits.filter((x) => x.step === 1).length, 1);
  } finally {
    engine.close();
  }
});

test('a last line without a newline that is complete JSON is indexed, and not duplicated later', () => {
  const h = tempHome();
  after(h.cleanup);
  const path = h.write(
    claudePath(S1),
    `${claudeLine(S1, 'user', 'Pin Node 20 in CI')}\n${claudeLine(S1, 'assistant', 'Pinned node-version 20.x in the workflow.')}`,
  );
  const engine = h.engine();
  try {
    assert.equal(engine.transcripts.index().steps.written, 2);
    appendFileSync(path, `\n${claudeLine(S1, 'user', 'Thanks, now update the Dockerfile too')}\n`);
    const run = engine.transcripts.index();
    assert.equal(
      run.steps.written,
      2,
      'the new line, and the re-read tail whose neighbour field now holds the new turn',
    );
    assert.equal(engine.transcripts.show({ thread: `claude-code:${S1}` }).steps.length, 3);
  } finally {
    engine.close();
  }
});

test('a rewritten, truncated or deleted file keeps its indexed steps, marked', async () => {
  const h = tempHome();
  after(h.cleanup);
  const p1 = h.write(
    claudePath(S1),
    `${claudeLine(S1, 'user', 'Explain the flaky order_total_rounding test')}\n${claudeLine(S1, 'assistant', 'Floats: 0.1 + 0.2 is not 0.3 in the rounding helper.')}\n`,
  );
  h.write(claudePath(S2), `${claudeLine(S2, 'user', 'Set up the CORS preflight for checkout')}\n`);
  const engine = h.engine();
  try {
    engine.transcripts.index();
    // Rewritten with different content and a smaller size: step 0 is replaced, step 1 kept.
    writeFileSync(p1, `${claudeLine(S1, 'user', 'Move money to integer cents')}\n`);
    const run = engine.transcripts.index();
    assert.equal(run.files.updated, 1);
    assert.equal((await engine.transcripts.search('order_total_rounding')).hits.length, 0);
    assert.equal((await engine.transcripts.search('integer cents')).hits[0]?.thread, `claude-code:${S1}`);
    assert.equal((await engine.transcripts.search('rounding helper')).hits[0]?.thread, `claude-code:${S1}`);

    truncateSync(p1, 0);
    engine.transcripts.index();
    assert.equal((await engine.transcripts.search('integer cents')).hits[0]?.thread, `claude-code:${S1}`);
    const cut = engine.transcripts.threads().find((t) => t.id === `claude-code:${S1}`);
    assert.equal(cut?.sourceGone?.reason, 'truncated');

    rmSync(h.home + '/' + claudePath(S2));
    const gone = engine.transcripts.index();
    assert.equal(gone.files.removed, 1);
    const hit = (await engine.transcripts.search('CORS preflight')).hits[0];
    assert.equal(hit?.thread, `claude-code:${S2}`);
    assert.equal(hit?.source_gone?.reason, 'deleted');
    const shown = engine.transcripts.show({ thread: `claude-code:${S2}` });
    assert.match(shown.steps[0].text, /CORS preflight/);
    assert.equal(shown.thread.sourceGone?.reason, 'deleted');

    // The file comes back (a restore, or the agent wrote it again): the deletion mark goes.
    h.write(claudePath(S2), `${claudeLine(S2, 'user', 'Set up the CORS preflight for checkout')}\n`);
    engine.transcripts.index();
    assert.equal(engine.transcripts.show({ thread: `claude-code:${S2}` }).thread.sourceGone, undefined);
  } finally {
    engine.close();
  }
});

test('broken, binary, invalid UTF-8 and oversized lines are reported with their line; the rest is indexed', () => {
  const h = tempHome();
  after(h.cleanup);
  const big = claudeLine(S1, 'user', `paste ${'x'.repeat(50 * 1024 * 1024)}`); // a 50 MB line
  const path = h.write(claudePath(S1), '');
  appendFileSync(path, `${claudeLine(S1, 'user', 'First question about the checkout flow')}\n`);
  appendFileSync(path, '{"type":"user","message":{"role":"user","content":"unterminated\n'); // line 2
  appendFileSync(path, Buffer.from([0x00, 0xff, 0xfe, 0x13, 0x37, 0x0a])); // line 3: binary junk
  const bad = Buffer.from(claudeLine(S1, 'user', 'price in euros: 10 EUR'));
  const at = bad.indexOf('EUR');
  bad[at] = 0xc3; // a lone lead byte: invalid UTF-8
  appendFileSync(path, Buffer.concat([bad, Buffer.from('\n')])); // line 4
  appendFileSync(path, `${big}\n`); // line 5
  appendFileSync(path, `${claudeLine(S1, 'assistant', 'Last answer about the checkout flow survives')}\n`); // line 6
  const engine = h.engine();
  try {
    const run = engine.transcripts.index();
    assert.ok(run.issues >= 4, `issues recorded: ${run.issues}`);
    const issues = engine.store.listIssues(50);
    const lines = issues.map((i) => i.line).sort();
    for (const n of [2, 3, 4, 5])
      assert.ok(lines.includes(n), `issue for line ${n} in ${JSON.stringify(issues)}`);
    assert.match(issues.find((i) => i.line === 5)!.message, /over the .*limit/);
    const steps = engine.transcripts.show({ thread: `claude-code:${S1}` }).steps;
    assert.deepEqual(
      steps.map((s) => s.source.line),
      [1, 4, 6],
    );
    assert.match(steps[1].text, /\uFFFD/);
    assert.equal(
      engine.transcripts.index().files.unchanged,
      1,
      'nothing is retried while the file is unchanged',
    );
  } finally {
    engine.close();
  }
});

test('a file that vanishes mid-run is skipped without failing the run', () => {
  const h = tempHome();
  after(h.cleanup);
  const a = h.write(claudePath(S1), `${claudeLine(S1, 'user', 'first session')}\n`);
  const b = h.write(claudePath(S2), `${claudeLine(S2, 'user', 'second session')}\n`);
  const engine = h.engine();
  try {
    let deleted = '';
    const run = engine.transcripts.index({
      onProgress: (_d, _t, path) => {
        if (!deleted) {
          deleted = path === a ? b : a;
          rmSync(deleted);
        }
      },
    });
    assert.equal(run.skipped.length, 0);
    assert.equal(run.files.new, 1);
  } finally {
    engine.close();
  }
});

test('a time budget stops between files and leaves the rest for the next run', () => {
  const h = tempHome();
  after(h.cleanup);
  h.write(claudePath(S1), `${claudeLine(S1, 'user', 'first session')}\n`);
  h.write(claudePath(S2), `${claudeLine(S2, 'user', 'second session')}\n`);
  const engine = h.engine();
  try {
    const slice = engine.transcripts.index({ budgetMs: 0 });
    assert.equal(slice.pending, 2);
    assert.equal(slice.steps.written, 0);
    const rest = engine.transcripts.index();
    assert.deepEqual([rest.pending, rest.files.new, rest.steps.written], [0, 2, 2]);
  } finally {
    engine.close();
  }
});

test('a quick pass checks recently active transcripts and leaves cold ones for the periodic check', async () => {
  const h = tempHome();
  after(h.cleanup);
  const cold = h.write(claudePath(S1), `${claudeLine(S1, 'user', 'an old session')}\n`);
  const hot = h.write(claudePath(S2), `${claudeLine(S2, 'user', 'the session running now')}\n`);
  const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
  utimesSync(cold, twoHoursAgo, twoHoursAgo);
  const engine = h.engine();
  try {
    engine.transcripts.index({ quick: true }); // first pass: full listing and checks
    appendFileSync(hot, `${claudeLine(S2, 'assistant', 'hot reply')}\n`);
    appendFileSync(cold, `${claudeLine(S1, 'assistant', 'late reply to the old session')}\n`);
    const quick = engine.transcripts.index({ quick: true });
    assert.equal(quick.steps.written, 1, 'only the hot transcript was read');
    const full = engine.transcripts.index();
    assert.equal(full.steps.written, 1, 'a full pass picks up the cold one');
    assert.equal(
      (await engine.transcripts.search('late reply old session')).hits[0]?.thread,
      `claude-code:${S1}`,
    );
  } finally {
    engine.close();
  }
});
