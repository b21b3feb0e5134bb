/**
 * Saved threads on every backend: import, idempotent and checkpointed append, external-id and
 * content dedup, tail reconcile, handoff numbering, redaction, atomicity, two processes racing,
 * and one scripted sequence whose every answer must agree between SQLite and PostgreSQL.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it, test } from 'node:test';
import type { Engine } from '../../src/app/engine.js';
import { TapedeckError } from '../../src/core/errors.js';
import type { SavedThreadStore } from '../../src/ports/saved-thread-store.js';
import type { BackendKind } from '../../src/ports/stores.js';
import { createSavedThreadService } from '../../src/services/saved-threads/index.js';
import { BACKENDS, backendHome, POSTGRES } from '../support/backends.js';
import { ClaudeSession } from '../support/claude-session.js';
import { claudeLine, claudePath, type TempHome } from '../support/home.js';

const ROOT = join(import.meta.dirname, '..', '..');
const CHILD = join(import.meta.dirname, 'saved-threads-append-child.ts');

const msgs = (...texts: string[]) =>
  texts.map((t, i) => ({
    role: i % 2 ? 'assistant' : 'user',
    content: t,
    timestamp: `2026-05-0${1 + (i % 9)}T10:00:00Z`,
  }));

function setup(kind: BackendKind) {
  const h = backendHome(kind);
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

/** What a racing child printed: an append result, or the error it got. */
interface ChildResult {
  success?: true;
  messages_added: number;
  total_messages: number;
  error?: { code: string; details: Record<string, unknown> };
}

const texts = (engine: Engine, id: string) => engine.savedThreads.get(id).messages.map((m) => m.content);

for (const b of BACKENDS) {
  describe(`import (${b.name})`, { skip: b.skip }, () => {
    it('creates a thread in the shared tables: shown, listed and searched like a transcript', async () => {
      const { engine } = setup(b.name);
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
      const hit = (await engine.transcripts.search('payment SDK pinned')).hits[0];
      assert.equal(hit?.thread, 'chat-42');
      assert.deepEqual(hit?.source, { path: 'tapedeck://thread/chat-42', line: 2 });
      assert.ok(engine.transcripts.threads({ agent: 'antigravity' }).some((t) => t.id === 'chat-42'));
    });

    it('maps known client apps to agents and keeps any other app name beside the fallback agent', () => {
      const { engine } = setup(b.name);
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
      const { engine } = setup(b.name);
      const metadata = { url: 'https://chat.example/c/1', tags: ['a'], z: 1, a: { 'ü%_': null } };
      const r = engine.savedThreads.import({
        space: 'work',
        metadata,
        messages: [
          { role: 'system', content: 'You are helpful.' },
          { role: 'user', content: [{ type: 'text', text: 'Plan the v2 migration\nwith details' }] },
        ],
      });
      assert.match(r.thread_id, /^[0-9a-f-]{36}$/);
      const d = engine.savedThreads.get(r.thread_id);
      assert.equal(d.thread.title, 'Plan the v2 migration');
      assert.equal(d.thread.space, 'work');
      assert.deepEqual(d.metadata, metadata);
      // Key order survives too (the metadata is kept as written, not normalised).
      assert.equal(JSON.stringify(d.metadata), JSON.stringify(metadata));
      assert.deepEqual(
        d.messages.map((m) => [m.role, m.content]),
        [
          ['system', 'You are helpful.'],
          ['user', 'Plan the v2 migration\nwith details'],
        ],
      );
    });

    it('refuses an existing id unless merging, which appends only what is missing', () => {
      const { engine } = setup(b.name);
      engine.savedThreads.import({ id: 't1', messages: msgs('one', 'two') });
      const e = throwsCode(
        () => engine.savedThreads.import({ id: 't1', messages: msgs('one', 'two', 'three') }),
        'CONFLICT',
      );
      assert.equal(e.details?.reason, 'thread_exists');
      assert.equal(e.details?.total_messages, 2);
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
      const { h, engine } = setup(b.name);
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
      rmSync(path); // a deleted transcript's thread stays, marked; saved threads have no file to lose
      engine.transcripts.index();
      assert.equal(engine.store.getThread(indexed)?.sourceGone?.reason, 'deleted');
      assert.deepEqual(texts(engine, 'kept'), ['saved text survives reindexing']);
    });

    it('ids and text beyond ASCII, LIKE metacharacters and very long messages round-trip', () => {
      const { engine } = setup(b.name);
      const ids = ['日本語-スレッド', 'a%b_c', 'a_b%c', 'émoji-🦛', 'x\\y'];
      for (const id of ids)
        engine.savedThreads.import({ id, messages: [{ role: 'user', content: `hello from ${id}` }] });
      for (const id of ids) assert.deepEqual(texts(engine, id), [`hello from ${id}`]);
      // Listing ties on the updated time fall back to the id, bytewise.
      const listed = engine.savedThreads.list().map((s) => s.id);
      assert.deepEqual([...listed].sort(), [...ids].sort());
      const long = `${'Ωmega '.repeat(40_000)}end`;
      engine.savedThreads.append({ thread: 'a%b_c', messages: [{ role: 'assistant', content: long }] });
      const got = engine.savedThreads.get('a%b_c').messages[1]!.content;
      assert.ok(got.startsWith('Ωmega Ωmega'), got.slice(0, 20));
      // The same long message again is a duplicate (its content key matches).
      assert.equal(
        engine.savedThreads.append({ thread: 'a%b_c', messages: [{ role: 'assistant', content: long }] })
          .messages_added,
        0,
      );
      assert.equal(engine.savedThreads.list({ limit: 2, offset: 4 }).length, 1);
      assert.deepEqual(engine.savedThreads.list({ offset: 5 }), []);
    });
  });

  describe(`append (${b.name})`, { skip: b.skip }, () => {
    it('replays an idempotency key: same answer, nothing written, even if the body differs', () => {
      const { engine } = setup(b.name);
      engine.savedThreads.import({ id: 't', messages: msgs('a') });
      const first = engine.savedThreads.append({
        thread: 't',
        idempotencyKey: 'k1',
        messages: msgs('b', 'c'),
      });
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
      assert.deepEqual(
        engine.stores.catalog.savedRequests('t').map((r) => [r.key, r.op, r.result]),
        [['k1', 'append', first]],
      );
    });

    it('skips messages whose external id is already saved, and repeats inside one batch', () => {
      const { engine } = setup(b.name);
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
      const { engine } = setup(b.name);
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
      const { engine } = setup(b.name);
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
      const { engine } = setup(b.name);
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

  describe(`reconcile (${b.name})`, { skip: b.skip }, () => {
    const seed = (engine: Engine) =>
      engine.savedThreads.import({
        id: 't',
        messages: ['m0', 'm1', 'm2', 'm3'].map((c, i) => ({
          role: i % 2 ? 'assistant' : 'user',
          content: c,
          external_id: c,
        })),
      });

    it('keeps the first k messages and replaces the rest with the tail (k in the middle)', async () => {
      const { engine } = setup(b.name);
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
      assert.equal(
        (await engine.transcripts.search('m1')).hits[0]?.thread,
        't',
        'kept messages stay searchable',
      );
      assert.equal(
        (await engine.transcripts.search('m3')).hits.length,
        0,
        'the replaced tail is gone from search',
      );
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
      const { engine } = setup(b.name);
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
      assert.equal(engine.savedThreads.append({ thread: 't', messages: msgs('again') }).total_messages, 1);
    });

    it('refuses k larger than the thread, and a tail repeating a kept external id', () => {
      const { engine } = setup(b.name);
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

  describe(`handoff and safety (${b.name})`, { skip: b.skip }, () => {
    it('a handoff is saved as a linked thread, numbered after the ones before it', () => {
      const { h, engine } = setup(b.name);
      const SID = '3c3c3c3c-1111-4222-8333-444444444444';
      h.write(
        claudePath(SID),
        new ClaudeSession(SID, '/home/dev/acme-shop')
          .user('Fix the 500 on page 0. TODO: check the CSV export too.')
          .say('We decided to clamp page to at least 1 in paginate().')
          .text(),
      );
      engine.transcripts.index();
      const one = engine.savedThreads.handoff({ thread: `claude-code:${SID}` });
      const two = engine.savedThreads.handoff({ thread: `claude-code:${SID}`, title: 'Second' });
      assert.equal(one.id, `handoff:claude-code:${SID}:1`);
      assert.equal(two.id, `handoff:claude-code:${SID}:2`);
      const shown = engine.transcripts.show({ thread: two.id });
      assert.equal(shown.thread.parentId, `claude-code:${SID}`);
      assert.equal(shown.thread.title, 'Second');
      assert.equal(shown.thread.stepCount, two.total_messages);
      const detail = engine.savedThreads.get(two.id);
      assert.equal(detail.source_app, 'tapedeck-handoff');
      assert.deepEqual(detail.metadata?.handoff_of, `claude-code:${SID}`);
      assert.deepEqual(engine.stores.saved.idsWithPrefix(`handoff:claude-code:${SID}:`), [one.id, two.id]);
      assert.deepEqual(engine.stores.saved.idsWithPrefix('handoff:claude-code:3c3c%'), []);
      throwsCode(() => engine.savedThreads.handoff({ thread: 'claude-code:nope' }), 'NOT_FOUND');
    });

    it('redacts secrets in messages, titles and metadata before storing them', async () => {
      const { engine } = setup(b.name);
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
      assert.match(d.messages[0]!.content, /my key is \[REDACTED:openai-key\], set it in prod/);
      assert.match(d.thread.title ?? '', /\[REDACTED:openai-key\]/);
      assert.equal((await engine.transcripts.search(key.slice(3, 20))).hits.length, 0);
      assert.equal(
        engine.savedThreads.append({
          thread: 't',
          messages: [{ role: 'user', content: `my key is ${key}, set it in prod` }],
        }).messages_added,
        0,
      );
    });

    it('writes a batch entirely or not at all when storage fails midway', () => {
      const { engine } = setup(b.name);
      engine.savedThreads.import({ id: 't', messages: msgs('a') });
      const real = engine.stores.saved;
      let writes = 0;
      const failing: SavedThreadStore = {
        ...real,
        addMessage(id, k) {
          if (++writes === 3) throw new Error('disk on fire');
          real.addMessage(id, k);
        },
      };
      const svc = createSavedThreadService({
        store: engine.store,
        saved: failing,
        policy: engine.config.policy,
      });
      assert.throws(
        () => svc.append({ thread: 't', idempotencyKey: 'k', messages: msgs('b', 'c', 'd', 'e') }),
        /disk on fire/,
      );
      assert.deepEqual(texts(engine, 't'), ['a']);
      assert.equal(engine.transcripts.show({ thread: 't' }).thread.stepCount, 1);
      assert.equal(engine.stores.saved.messageCount('t'), 1);
      assert.equal(engine.stores.saved.getRequest('k'), undefined);
      assert.equal(
        engine.savedThreads.append({ thread: 't', idempotencyKey: 'k', messages: msgs('b', 'c') })
          .messages_added,
        2,
      );
    });
  });

  describe(`two processes at once (${b.name})`, { skip: b.skip }, () => {
    /** Two child processes, each with its own engine, appending `batch` at the same instant. */
    async function race(h: TempHome, thread: string, batches: unknown[][], expected?: number) {
      const startAt = Date.now() + 2_500;
      const runs = batches.map((batch, i) => {
        const file = join(h.tapedeckHome, '..', `batch-${Date.now()}-${i}.json`);
        writeFileSync(file, JSON.stringify(batch));
        const args = ['--import', 'tsx', CHILD, thread, file, String(startAt)];
        if (expected !== undefined) args.push(String(expected));
        return new Promise<ChildResult>((resolve, reject) => {
          const child = spawn(process.execPath, args, { env: h.env, cwd: ROOT });
          let out = '';
          let err = '';
          child.stdout.on('data', (d) => {
            out += d;
          });
          child.stderr.on('data', (d) => {
            err += d;
          });
          child.on('error', reject);
          child.on('close', (status) => {
            if (status !== 0) reject(new Error(`child exited ${status}: ${err}`));
            else resolve(JSON.parse(out));
          });
        });
      });
      return Promise.all(runs);
    }

    it('the same batch appended by both is written once, whole and in order', async () => {
      const { h, engine } = setup(b.name);
      engine.savedThreads.import({ id: 'race', messages: [{ role: 'user', content: 'start' }] });
      const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];
      const make = (round: number, ids: boolean) =>
        Array.from({ length: 150 }, (_, i) => ({
          role: i % 2 ? 'assistant' : 'user',
          content: `round ${round} message ${i}: ${words[i % words.length]} ${'lorem ipsum '.repeat(20)}`,
          ...(ids ? { external_id: `r${round}-${i}` } : {}),
        }));
      let expected = 1;
      const want = ['start'];
      for (const [round, ids] of [
        [1, true],
        [2, false],
      ] as const) {
        const batch = make(round, ids);
        const [x, y] = await race(h, 'race', [batch, batch]);
        const added = [x!.messages_added, y!.messages_added].sort((p, q) => p - q);
        assert.deepEqual(added, [0, 150], `round ${round}: one wrote the batch, the other nothing`);
        expected += 150;
        want.push(...batch.map((m) => m.content));
        assert.equal(Math.max(x!.total_messages, y!.total_messages), expected);
      }
      const got = engine.savedThreads.get('race', { limit: 10_000 });
      assert.deepEqual(
        got.messages.map((m) => m.index),
        Array.from({ length: expected }, (_, i) => i),
      );
      assert.deepEqual(
        got.messages.map((m) => m.content),
        want,
      );
      assert.equal(engine.transcripts.show({ thread: 'race', limit: 1 }).thread.stepCount, expected);
      assert.equal(engine.stores.saved.messageCount('race'), expected);
    });

    it('different batches at the same checkpoint: one lands, the other gets checkpoint_conflict', async () => {
      const { h, engine } = setup(b.name);
      engine.savedThreads.import({ id: 'cp', messages: [{ role: 'user', content: 'start' }] });
      const batch = (who: string) =>
        Array.from({ length: 60 }, (_, i) => ({ role: 'user', content: `${who} ${i}` }));
      const results = await race(h, 'cp', [batch('left'), batch('right')], 1);
      const ok = results.filter((r) => r.success);
      const refused = results.filter((r) => r.error);
      assert.equal(ok.length, 1, JSON.stringify(results));
      assert.equal(refused.length, 1, JSON.stringify(results));
      assert.equal(refused[0]!.error!.code, 'CONFLICT');
      assert.equal(refused[0]!.error!.details.reason, 'checkpoint_conflict');
      assert.equal(refused[0]!.error!.details.actual_message_count, 61);
      const contents = texts(engine, 'cp');
      assert.equal(contents.length, 61);
      const who = contents[1]!.split(' ')[0];
      assert.ok(
        contents.slice(1).every((c) => c.startsWith(`${who} `)),
        'no interleaving: all from one side',
      );
    });
  });
}

/** One scripted sequence, with a fixed clock and ids; every answer and the final state. */
function script(kind: BackendKind): unknown[] {
  const h = backendHome(kind);
  const engine = h.engine();
  try {
    let t = Date.parse('2026-06-01T09:00:00.000Z');
    let n = 0;
    const svc = createSavedThreadService({
      store: engine.store,
      saved: engine.stores.saved,
      policy: engine.config.policy,
      now: () => (t += 1000),
      newId: () => `gen-${++n}`,
    });
    const out: unknown[] = [];
    const step = (fn: () => unknown) => {
      try {
        out.push(fn());
      } catch (e) {
        out.push(e instanceof TapedeckError ? { error: e.code, details: e.details } : String(e));
      }
    };
    step(() => svc.import({ id: 'b', source: 'cursor', metadata: { k: 'ü' }, messages: msgs('x', 'y') }));
    step(() => svc.import({ messages: msgs('generated one') }));
    step(() => svc.import({ id: 'a', space: 'work', idempotencyKey: 'i1', messages: msgs('hello') }));
    step(() => svc.import({ id: 'a', idempotencyKey: 'i1', messages: msgs('ignored') }));
    step(() =>
      svc.append({ thread: 'b', expectedMessageCount: 2, idempotencyKey: 'k', messages: msgs('z') }),
    );
    step(() => svc.append({ thread: 'b', expectedMessageCount: 2, messages: msgs('late') }));
    step(() =>
      svc.append({
        thread: 'b',
        messages: [
          { role: 'user', content: 'e1', external_id: 'e1' },
          { role: 'user', content: 'x' },
          { role: 'user', content: 'e1 again', external_id: 'e1' },
        ],
      }),
    );
    step(() => svc.save({ id: 'c', expectedMessageCount: 0, messages: msgs('saved') }));
    step(() => svc.save({ id: 'c', expectedMessageCount: 1, messages: msgs('saved', 'more') }));
    step(() => svc.reconcile({ thread: 'b', matchedCount: 3, messages: msgs('t1', 't2') }));
    step(() => svc.reconcile({ thread: 'b', matchedCount: 9, messages: [] }));
    step(() => svc.append({ thread: 'missing', messages: msgs('x') }));
    for (const id of ['a', 'b', 'c', 'gen-1']) step(() => svc.get(id));
    step(() => svc.get('b', { from: 1, limit: 2 }));
    step(() => svc.list());
    step(() => svc.list({ limit: 2, offset: 1 }));
    step(() => engine.stores.catalog.savedThreadIds(null));
    step(() => engine.stores.catalog.savedThreadIds(['work']));
    step(() => engine.stores.catalog.savedRequests('b'));
    step(() => engine.stores.saved.messageKeys('b'));
    return out;
  } finally {
    engine.close();
    h.cleanup();
  }
}

test('the same scripted sequence gives the same answers and state on SQLite and PostgreSQL', {
  skip: POSTGRES.skip,
}, () => {
  const sqlite = script('sqlite');
  const postgres = script('postgres');
  assert.deepEqual(postgres, sqlite);
  // The script did what it says (not two identical failures).
  assert.equal((sqlite[0] as { messages_added: number }).messages_added, 2);
  assert.equal((sqlite[3] as { replayed: boolean }).replayed, true);
  assert.equal((sqlite[5] as { error: string }).error, 'CONFLICT');
});
