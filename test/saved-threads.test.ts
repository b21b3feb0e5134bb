/** Saved threads through the engine: import, idempotent append, reconcile, redaction, atomicity. */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import type { Engine } from '../src/app/engine.js';
import { TapedeckError } from '../src/core/errors.js';
import type { SavedThreadStore } from '../src/ports/saved-thread-store.js';
import { createSavedThreadService } from '../src/services/saved-threads/index.js';
import { openDatabase } from '../src/storage/sqlite/open.js';
import { createSqliteSavedThreadStore } from '../src/storage/sqlite/saved-thread-store.js';
import { createSqliteTranscriptStore } from '../src/storage/sqlite/transcript-store.js';
import { claudeLine, claudePath, tempHome } from './support/home.js';

const msgs = (...texts: string[]) =>
  texts.map((t, i) => ({
    role: i % 2 ? 'assistant' : 'user',
    content: t,
    timestamp: `2026-05-0${1 + (i % 9)}T10:00:00Z`,
  }));

function setup() {
  const h = tempHome();
  const engine = h.engine();
  after(() => {
    engine.close();
    h.cleanup();
  });
  return { h, engine };
}

/** Runs fn, asserts it throws a TapedeckError with this code, and returns the error. */
function throwsCode(fn: () => unknown, code: string): TapedeckError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof TapedeckError, String(e));
    assert.equal(e.code, code, e.message);
    return e;
  }
  assert.fail(`expected ${code}`);
}

const texts = (engine: Engine, id: string) => engine.savedThreads.get(id).messages.map((m) => m.content);

describe('import', () => {
  it('creates a thread in the shared tables: shown, listed and searched like a transcript', () => {
    const { engine } = setup();
    const r = engine.savedThreads.import({
      id: 'chat-42',
      title: 'Checkout flake',
      source: 'google-antigravity',
      project: '/home/dev/shop',
      messages: msgs(
        'Why does checkout flake on Fridays?',
        'We decided to pin the payment SDK because 4.2 retries twice.',
      ),
    });
    assert.deepEqual(r, {
      success: true,
      thread_id: 'chat-42',
      created: true,
      messages_added: 2,
      messages_skipped: 0,
      total_messages: 2,
      replayed: false,
    });
    const shown = engine.transcripts.show({ thread: 'chat-42' });
    assert.equal(shown.thread.agent, 'antigravity');
    assert.equal(shown.thread.source, 'tapedeck://thread/chat-42');
    assert.equal(shown.thread.title, 'Checkout flake');
    assert.equal(shown.thread.project, '/home/dev/shop');
    assert.equal(shown.thread.stepCount, 2);
    assert.deepEqual(
      shown.steps.map((s) => [s.step, s.role, s.kind, s.source.line, s.timestamp]),
      [
        [0, 'user', 'prompt', 1, '2026-05-01T10:00:00.000Z'],
        [1, 'assistant', 'response', 2, '2026-05-02T10:00:00.000Z'],
      ],
    );
    const hit = engine.transcripts.search('payment SDK pinned').hits[0];
    assert.equal(hit.thread, 'chat-42');
    assert.deepEqual(hit.source, { path: 'tapedeck://thread/chat-42', line: 2 });
    assert.ok(engine.transcripts.threads({ agent: 'antigravity' }).some((t) => t.id === 'chat-42'));
  });

  it('maps known client apps to agents and keeps any other app name beside the fallback agent', () => {
    const { engine } = setup();
    const agentOf = (source: string | undefined) => {
      const { thread_id } = engine.savedThreads.import({ source, messages: msgs('hello there') });
      return [
        engine.transcripts.show({ thread: thread_id }).thread.agent,
        engine.savedThreads.get(thread_id).source_app,
      ];
    };
    assert.deepEqual(agentOf('antigravity'), ['antigravity', 'antigravity']);
    assert.deepEqual(agentOf('claude-code'), ['claude-code', 'claude-code']);
    assert.deepEqual(agentOf('Codex'), ['codex', 'Codex']);
    assert.deepEqual(agentOf('gemini-cli'), ['gemini-cli', 'gemini-cli']);
    assert.deepEqual(agentOf('cursor'), ['other', 'cursor']);
    assert.deepEqual(agentOf(undefined), ['other', null]);
  });

  it('generates an id, titles the thread after the first user message and keeps space and metadata', () => {
    const { engine } = setup();
    const r = engine.savedThreads.import({
      space: 'work',
      metadata: { url: 'https://chat.example/c/1', tags: ['a'] },
      messages: [
        { role: 'system', content: 'You are helpful.' },
        { role: 'user', content: [{ type: 'text', text: 'Plan the v2 migration\nwith details' }] },
      ],
    });
    assert.match(r.thread_id, /^[0-9a-f-]{36}$/);
    const d = engine.savedThreads.get(r.thread_id);
    assert.equal(d.thread.title, 'Plan the v2 migration');
    assert.equal(d.thread.space, 'work');
    assert.deepEqual(d.metadata, { url: 'https://chat.example/c/1', tags: ['a'] });
    assert.deepEqual(
      d.messages.map((m) => [m.role, m.content]),
      [
        ['system', 'You are helpful.'],
        ['user', 'Plan the v2 migration\nwith details'],
      ],
    );
  });

  it('refuses an existing id unless merging, which appends only what is missing', () => {
    const { engine } = setup();
    engine.savedThreads.import({ id: 't1', messages: msgs('one', 'two') });
    const e = throwsCode(
      () => engine.savedThreads.import({ id: 't1', messages: msgs('one', 'two', 'three') }),
      'CONFLICT',
    );
    assert.equal(e.details?.reason, 'thread_exists');
    assert.deepEqual(texts(engine, 't1'), ['one', 'two']);
    const merged = engine.savedThreads.import({
      id: 't1',
      merge: true,
      messages: msgs('one', 'two', 'three'),
    });
    assert.equal(merged.created, false);
    assert.equal(merged.messages_added, 1);
    assert.equal(merged.messages_skipped, 2);
    assert.deepEqual(texts(engine, 't1'), ['one', 'two', 'three']);
  });

  it('never touches indexed transcripts, and ingest never touches saved threads', () => {
    const { h, engine } = setup();
    const S = '9d9d9d9d-1111-4222-8333-444444444444';
    const path = h.write(claudePath(S), `${claudeLine(S, 'user', 'index me please')}\n`);
    engine.transcripts.index();
    const indexed = `claude-code:${S}`;
    assert.equal(
      throwsCode(() => engine.savedThreads.import({ id: indexed, messages: msgs('x') }), 'CONFLICT').details
        ?.reason,
      'not_a_saved_thread',
    );
    assert.equal(
      throwsCode(() => engine.savedThreads.append({ thread: indexed, messages: msgs('x') }), 'CONFLICT')
        .details?.reason,
      'not_a_saved_thread',
    );
    throwsCode(() => engine.savedThreads.append({ thread: 'nope', messages: msgs('x') }), 'NOT_FOUND');

    engine.savedThreads.import({ id: 'kept', messages: msgs('saved text survives reindexing') });
    engine.transcripts.index({ full: true });
    rmSync(path); // a deleted transcript's thread is kept, marked; saved threads have no file to lose
    engine.transcripts.index();
    assert.equal(engine.store.getThread(indexed)?.sourceGone?.reason, 'deleted');
    assert.deepEqual(texts(engine, 'kept'), ['saved text survives reindexing']);
  });
});

describe('append', () => {
  it('replays an idempotency key: same answer, nothing written, even if the body differs', () => {
    const { engine } = setup();
    engine.savedThreads.import({ id: 't', messages: msgs('a') });
    const first = engine.savedThreads.append({ thread: 't', idempotencyKey: 'k1', messages: msgs('b', 'c') });
    assert.deepEqual([first.messages_added, first.total_messages, first.replayed], [2, 3, false]);
    const again = engine.savedThreads.append({ thread: 't', idempotencyKey: 'k1', messages: msgs('d') });
    assert.deepEqual({ ...again, replayed: false }, first);
    assert.equal(again.replayed, true);
    assert.deepEqual(texts(engine, 't'), ['a', 'b', 'c']);
    // A key belongs to one thread.
    engine.savedThreads.import({ id: 'other', messages: msgs('z') });
    assert.equal(
      throwsCode(
        () => engine.savedThreads.append({ thread: 'other', idempotencyKey: 'k1', messages: msgs('q') }),
        'CONFLICT',
      ).details?.reason,
      'idempotency_key_reused',
    );
  });

  it('skips messages whose external id is already saved, and repeats inside one batch', () => {
    const { engine } = setup();
    engine.savedThreads.import({
      id: 't',
      messages: [{ role: 'user', content: 'first', external_id: 'u1' }],
    });
    const batch = [
      { role: 'user', content: 'first (edited locally)', external_id: 'u1' },
      { role: 'assistant', content: 'reply', external_id: 'a1' },
      { role: 'assistant', content: 'reply again', external_id: 'a1' },
      { role: 'user', content: 'follow-up', external_id: 7 },
    ];
    const r1 = engine.savedThreads.append({ thread: 't', messages: batch });
    assert.deepEqual([r1.messages_added, r1.messages_skipped, r1.total_messages], [2, 2, 3]);
    const r2 = engine.savedThreads.append({ thread: 't', messages: batch });
    assert.deepEqual([r2.messages_added, r2.messages_skipped, r2.total_messages], [0, 4, 3]);
    assert.deepEqual(
      engine.savedThreads.get('t').messages.map((m) => [m.external_id, m.content]),
      [
        ['u1', 'first'],
        ['a1', 'reply'],
        ['7', 'follow-up'],
      ],
    );
  });

  it('skips messages with the same role and text (whitespace aside) when they have no external id', () => {
    const { engine } = setup();
    engine.savedThreads.import({ id: 't', messages: msgs('Run the tests', 'All 12 pass.') });
    const r = engine.savedThreads.append({
      thread: 't',
      messages: [
        { role: 'user', content: '  Run   the tests\n' },
        { role: 'assistant', content: 'All 12 pass.' },
        { role: 'user', content: 'All 12 pass.' }, // same text, other role: new
        { role: 'user', content: 'ok' },
        { role: 'user', content: 'ok' }, // repeats inside one new batch are kept
      ],
    });
    assert.deepEqual([r.messages_added, r.messages_skipped], [3, 2]);
    assert.deepEqual(texts(engine, 't'), ['Run the tests', 'All 12 pass.', 'All 12 pass.', 'ok', 'ok']);
    const dup = engine.savedThreads.append({
      thread: 't',
      deduplicate: false,
      messages: [{ role: 'user', content: 'ok' }],
    });
    assert.equal(dup.messages_added, 1);
    assert.equal(dup.total_messages, 6);
  });

  it('fails with checkpoint_conflict when the expected count is off, writing nothing', () => {
    const { engine } = setup();
    engine.savedThreads.import({ id: 't', messages: msgs('a', 'b') });
    const e = throwsCode(
      () =>
        engine.savedThreads.append({
          thread: 't',
          expectedMessageCount: 1,
          idempotencyKey: 'k',
          messages: msgs('c'),
        }),
      'CONFLICT',
    );
    assert.deepEqual(e.details, {
      reason: 'checkpoint_conflict',
      thread_id: 't',
      expected_message_count: 1,
      actual_message_count: 2,
    });
    assert.deepEqual(texts(engine, 't'), ['a', 'b']);
    // The failed call did not burn its key.
    const ok = engine.savedThreads.append({
      thread: 't',
      expectedMessageCount: 2,
      idempotencyKey: 'k',
      messages: msgs('c'),
    });
    assert.deepEqual([ok.messages_added, ok.total_messages, ok.replayed], [1, 3, false]);
  });

  it('rejects bad input before writing anything', () => {
    const { engine } = setup();
    engine.savedThreads.import({ id: 't', messages: msgs('a') });
    const bad: [string, () => unknown][] = [
      [
        'empty content',
        () =>
          engine.savedThreads.append({
            thread: 't',
            messages: [...msgs('b'), { role: 'user', content: '  ' }],
          }),
      ],
      [
        'unknown role',
        () => engine.savedThreads.append({ thread: 't', messages: [{ role: 'robot', content: 'x' }] }),
      ],
      [
        'bad time',
        () =>
          engine.savedThreads.append({
            thread: 't',
            messages: [{ role: 'user', content: 'x', timestamp: 'soon' }],
          }),
      ],
      ['no messages', () => engine.savedThreads.append({ thread: 't', messages: [] })],
      ['not a list', () => engine.savedThreads.append({ thread: 't', messages: 'hi' })],
      [
        'negative count',
        () => engine.savedThreads.append({ thread: 't', expectedMessageCount: -1, messages: msgs('x') }),
      ],
      ['control chars in id', () => engine.savedThreads.import({ id: 'a\nb', messages: msgs('x') })],
      ['id too long', () => engine.savedThreads.import({ id: 'x'.repeat(201), messages: msgs('x') })],
      ['bad space', () => engine.savedThreads.import({ space: '../etc', messages: msgs('x') })],
      [
        'huge message',
        () => engine.savedThreads.append({ thread: 't', messages: msgs('x'.repeat(1_000_001)) }),
      ],
    ];
    for (const [what, fn] of bad) {
      const e = throwsCode(fn, 'INVALID_INPUT');
      assert.ok(e.message.length > 10, what);
    }
    assert.deepEqual(texts(engine, 't'), ['a']);
    assert.equal(engine.savedThreads.list().length, 1);
  });
});

describe('reconcile', () => {
  const seed = (engine: Engine) =>
    engine.savedThreads.import({
      id: 't',
      messages: ['m0', 'm1', 'm2', 'm3'].map((c, i) => ({
        role: i % 2 ? 'assistant' : 'user',
        content: c,
        external_id: c,
      })),
    });

  it('keeps the first k messages and replaces the rest with the tail (k in the middle)', () => {
    const { engine } = setup();
    seed(engine);
    const r = engine.savedThreads.reconcile({
      thread: 't',
      matchedCount: 2,
      messages: msgs('new2', 'new3', 'new4'),
    });
    assert.deepEqual(r, {
      success: true,
      thread_id: 't',
      messages_kept: 2,
      messages_removed: 2,
      messages_added: 3,
      total_messages: 5,
    });
    assert.deepEqual(texts(engine, 't'), ['m0', 'm1', 'new2', 'new3', 'new4']);
    assert.equal(engine.transcripts.show({ thread: 't' }).thread.stepCount, 5);
    assert.equal(engine.transcripts.search('m1').hits[0]?.thread, 't', 'kept messages stay searchable');
    assert.equal(engine.transcripts.search('m3').hits.length, 0, 'the replaced tail is gone from search');
    // The replaced messages' external ids are free again.
    assert.equal(
      engine.savedThreads.append({
        thread: 't',
        messages: [{ role: 'user', content: 'm3', external_id: 'm3' }],
      }).messages_added,
      1,
    );
  });

  it('k = 0 replaces everything, k = all only appends, an empty tail truncates', () => {
    const { engine } = setup();
    seed(engine);
    assert.equal(
      engine.savedThreads.reconcile({ thread: 't', matchedCount: 4, messages: msgs('m4') }).total_messages,
      5,
    );
    assert.deepEqual(texts(engine, 't'), ['m0', 'm1', 'm2', 'm3', 'm4']);
    assert.equal(
      engine.savedThreads.reconcile({ thread: 't', matchedCount: 0, messages: msgs('fresh') })
        .messages_removed,
      5,
    );
    assert.deepEqual(texts(engine, 't'), ['fresh']);
    assert.equal(
      engine.savedThreads.reconcile({ thread: 't', matchedCount: 0, messages: [] }).total_messages,
      0,
    );
    assert.deepEqual(texts(engine, 't'), []);
  });

  it('refuses k larger than the thread, and a tail repeating a kept external id', () => {
    const { engine } = setup();
    seed(engine);
    const e = throwsCode(
      () => engine.savedThreads.reconcile({ thread: 't', matchedCount: 5, messages: msgs('x') }),
      'INVALID_INPUT',
    );
    assert.equal(e.details?.actual_message_count, 4);
    throwsCode(
      () =>
        engine.savedThreads.reconcile({
          thread: 't',
          matchedCount: 2,
          messages: [{ role: 'user', content: 'x', external_id: 'm1' }],
        }),
      'INVALID_INPUT',
    );
    throwsCode(
      () => engine.savedThreads.reconcile({ thread: 't', matchedCount: 1.5, messages: [] }),
      'INVALID_INPUT',
    );
    assert.deepEqual(texts(engine, 't'), ['m0', 'm1', 'm2', 'm3']);
  });
});

describe('safety', () => {
  it('redacts secrets in messages, titles and metadata before storing them', () => {
    const { engine } = setup();
    const key = 'sk-proj-4fJ9xQ2mT7vL1pR8sK3wZ6yB0nC5hD2gE9aU';
    engine.savedThreads.import({
      id: 't',
      title: `deploy with ${key}`,
      metadata: { note: `OPENAI_API_KEY=${key}` },
      messages: [{ role: 'user', content: `my key is ${key}, set it in prod` }],
    });
    engine.savedThreads.append({
      thread: 't',
      messages: [{ role: 'tool', content: `export OPENAI_API_KEY=${key}` }],
    });
    const d = engine.savedThreads.get('t');
    const all = JSON.stringify(d);
    assert.ok(!all.includes(key), all);
    assert.match(d.messages[0].content, /my key is \[REDACTED:openai-key\], set it in prod/);
    assert.match(d.thread.title ?? '', /\[REDACTED:openai-key\]/);
    assert.equal(engine.transcripts.search(key.slice(3, 20)).hits.length, 0);
    // The same secret message again is still recognised as a duplicate.
    assert.equal(
      engine.savedThreads.append({
        thread: 't',
        messages: [{ role: 'user', content: `my key is ${key}, set it in prod` }],
      }).messages_added,
      0,
    );
  });

  it('writes a batch entirely or not at all when storage fails midway', () => {
    const { h, engine } = setup();
    engine.savedThreads.import({ id: 't', messages: msgs('a') });
    const db = openDatabase(engine.config.dbPath);
    after(() => db.close());
    const real = createSqliteSavedThreadStore(db);
    let writes = 0;
    const failing: SavedThreadStore = {
      ...real,
      addMessage(id, k) {
        if (++writes === 3) throw new Error('disk on fire');
        real.addMessage(id, k);
      },
    };
    const svc = createSavedThreadService({
      store: createSqliteTranscriptStore(db, engine.config.dbPath),
      saved: failing,
      policy: engine.config.policy,
    });
    assert.throws(
      () => svc.append({ thread: 't', idempotencyKey: 'k', messages: msgs('b', 'c', 'd', 'e') }),
      /disk on fire/,
    );
    assert.deepEqual(texts(engine, 't'), ['a']);
    assert.equal(engine.transcripts.show({ thread: 't' }).thread.stepCount, 1);
    // Nothing was remembered for the key either: a retry goes through.
    assert.equal(
      engine.savedThreads.append({ thread: 't', idempotencyKey: 'k', messages: msgs('b', 'c') })
        .messages_added,
      2,
    );
    void h;
  });
});
