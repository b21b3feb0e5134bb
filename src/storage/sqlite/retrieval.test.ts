/**
 * The retriever keeps per process what does not change between queries (each expression's match
 * count, each thread's columns). A search must still see what was written since — by another
 * process (another connection to the same file) or by this connection itself — or a new step is
 * missed (its word's count cached as the old one says "all matches taken") and a thread shows a
 * stale title and dates.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseQuery } from '../../core/query.js';
import type { Step } from '../../core/types.js';
import { DEFAULT_POLICY, prepareStep } from '../../ingest/prepare-step.js';
import type { TranscriptStore } from '../../ports/transcript-store.js';
import { openDatabase } from './open.js';
import { createRetriever } from './retrieval.js';
import { createSqliteTranscriptStore } from './transcript-store.js';

function addStep(store: TranscriptStore, thread: string, n: number, text: string, updatedAt: string) {
  store.write((w) => {
    w.upsertThread({
      id: `claude-code:${thread}`,
      agent: 'claude-code',
      sessionId: thread,
      project: '/p',
      title: `about ${thread}`,
      startedAt: '2026-01-01T00:00:00.000Z',
      updatedAt,
      source: `/${thread}.jsonl`,
    });
    const s: Step = {
      step: n,
      role: 'user',
      kind: 'prompt',
      text,
      source: { path: `/${thread}.jsonl`, line: n + 1 },
    };
    w.upsertStep(`claude-code:${thread}`, prepareStep(s, DEFAULT_POLICY)!);
  });
}

test('a search sees steps and thread changes written since the last one, by another connection or its own', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tapedeck-retrieval-'));
  const path = join(dir, 't.db');
  const reader = createSqliteTranscriptStore(openDatabase(path), path);
  const writer = createSqliteTranscriptStore(openDatabase(path), path);
  try {
    const q = parseQuery('zebra migration');
    const found = () =>
      reader
        .candidates(q, {}, 50)
        .candidates.map((c) => `${c.threadId}#${c.step}@${c.threadUpdatedAt}`)
        .sort();
    addStep(writer, 'a', 0, 'the zebra migration failed', '2026-01-01T01:00:00.000Z');
    for (let i = 1; i < 5; i++) addStep(writer, 'a', i, `unrelated step ${i}`, '2026-01-01T01:00:00.000Z');
    assert.deepEqual(found(), ['claude-code:a#0@2026-01-01T01:00:00.000Z']);
    assert.deepEqual(
      found(),
      ['claude-code:a#0@2026-01-01T01:00:00.000Z'],
      'a repeated search, from the caches',
    );

    // Another process writes: a new match for the same words, and thread a moves on.
    addStep(writer, 'b', 0, 'zebra migration again', '2026-01-02T00:00:00.000Z');
    addStep(writer, 'a', 5, 'later step', '2026-01-03T00:00:00.000Z');
    assert.deepEqual(found(), [
      'claude-code:a#0@2026-01-03T00:00:00.000Z',
      'claude-code:b#0@2026-01-02T00:00:00.000Z',
    ]);

    // This connection writes.
    addStep(reader, 'c', 0, 'a zebra migration too', '2026-01-04T00:00:00.000Z');
    assert.equal(found().length, 3);
    assert.ok(found().includes('claude-code:c#0@2026-01-04T00:00:00.000Z'));
  } finally {
    reader.close();
    writer.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A store whose one thread holds `texts` as its steps 0, 1, …; its connection for a retriever. */
function storeOf(texts: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'tapedeck-retrieval-'));
  const path = join(dir, 't.db');
  const db = openDatabase(path);
  const store = createSqliteTranscriptStore(db, path);
  store.write((w) => {
    w.upsertThread({
      id: 'claude-code:t',
      agent: 'claude-code',
      sessionId: 't',
      project: '/p',
      title: 't',
      startedAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      source: '/t.jsonl',
    });
    texts.forEach((text, n) => {
      const s: Step = {
        step: n,
        role: 'user',
        kind: 'prompt',
        text,
        source: { path: '/t.jsonl', line: n + 1 },
      };
      w.upsertStep('claude-code:t', prepareStep(s, DEFAULT_POLICY)!);
    });
  });
  const close = () => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { db, close };
}

const filler = (n: number) => Array.from({ length: n }, (_, i) => `filler note number ${i}`);
const steps = (n: number, text: string) => Array.from({ length: n }, (_, i) => `${text} (${i})`);

test('an AND probe takes every step holding all the words when they are few, and its best ones when many', () => {
  // "alpha" and "beta" are each in 60 steps; the every-word probe keeps at most 40 steps.
  for (const both of [3, 45]) {
    const texts = [
      ...filler(400),
      ...steps(60 - both, 'alpha only'),
      ...steps(60 - both, 'beta only'),
      ...steps(both, 'alpha and beta'),
    ];
    const { db, close } = storeOf(texts);
    try {
      const got = createRetriever(db)
        .candidates(parseQuery('alpha beta'), {}, 5)
        .candidates.filter((c) => c.text.startsWith('alpha and beta'));
      if (both === 3) assert.equal(got.length, 3, 'all three steps with both words');
      else assert.ok(got.length >= 40 && got.length <= 45, `40 to 45 of 45, got ${got.length}`);
    } finally {
      close();
    }
  }
});
