/**
 * A first index writes in bulk (SQLite: full-text merges deferred, one merge at the end). It must
 * store exactly what an ordinary run stores, leave a fully merged index, and never leave the
 * deferral behind: every commit carries the store's own merge settings, so a run killed midway
 * leaves a store that merges as usual.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import Database from 'better-sqlite3';
import { generateCorpus } from '../bench/generate.js';
import { loadConfig } from '../src/app/config.js';
import { createEngine } from '../src/app/engine.js';
import { type Step, seqOf } from '../src/core/types.js';
import { DEFAULT_POLICY, prepareStep } from '../src/ingest/prepare-step.js';
import { openDatabase } from '../src/storage/sqlite/open.js';
import { createSqliteTranscriptStore } from '../src/storage/sqlite/transcript-store.js';

let root: string;
let home: string;
before(async () => {
  root = mkdtempSync(join(tmpdir(), 'tapedeck-bulk-'));
  home = join(root, 'home');
  await generateCorpus({ out: home, steps: 1200, seed: 11 });
});
after(() => rmSync(root, { recursive: true, force: true }));

function index(db: string, options: { budgetMs?: number } = {}) {
  const engine = createEngine(loadConfig({ db }, { HOME: home, TAPEDECK_HOME: join(root, 'td') }));
  try {
    return engine.transcripts.index(options);
  } finally {
    engine.close();
  }
}

/** What a search sees: every step, and the full-text index term by term (documents, counts). */
function contents(db: string) {
  const d = new Database(db, { readonly: true });
  try {
    return {
      steps: d
        .prepare(
          'SELECT t.id, s.seq, s.step, s.kind, s.text, s.target, s.idents, s.ctx, s.hash FROM steps s JOIN threads t USING (tid) ORDER BY t.id, s.seq',
        )
        .all(),
      vocab: d.prepare('SELECT term, doc, cnt FROM steps_vocab ORDER BY term').all(),
    };
  } finally {
    d.close();
  }
}

function ftsShape(db: string) {
  const d = new Database(db, { readonly: true });
  try {
    const setting = (k: string) =>
      (d.prepare('SELECT v FROM steps_fts_config WHERE k = ?').get(k) as { v: number } | undefined)?.v;
    return {
      segments: (d.prepare('SELECT count(DISTINCT segid) AS n FROM steps_fts_idx').get() as { n: number }).n,
      automerge: setting('automerge') ?? 4,
      crisismerge: setting('crisismerge') ?? 16,
    };
  } finally {
    d.close();
  }
}

test('a bulk first index stores what an ordinary run stores, in one merged segment', () => {
  const bulk = join(root, 'bulk.db');
  const ordinary = join(root, 'ordinary.db');
  const a = index(bulk);
  // A time budget makes an ordinary run: no bulk writes, no worker, merges as it goes.
  const b = index(ordinary, { budgetMs: 3_600_000 });
  assert.ok(a.files.new >= 8 && a.steps.written > 1000, `${a.files.new} files, ${a.steps.written} steps`);
  assert.deepEqual(a.files, b.files);
  assert.equal(a.steps.written, b.steps.written);
  const x = contents(bulk);
  const y = contents(ordinary);
  assert.deepEqual(x.steps, y.steps);
  assert.deepEqual(x.vocab, y.vocab);
  assert.deepEqual(ftsShape(bulk), { segments: 1, automerge: 4, crisismerge: 16 });
  assert.ok(ftsShape(ordinary).segments >= 1);
  const d = new Database(bulk);
  try {
    d.prepare(`INSERT INTO steps_fts(steps_fts, rank) VALUES ('integrity-check', 1)`).run();
  } finally {
    d.close();
  }
});

const step = (n: number, text: string): Step => ({
  step: n,
  role: n % 2 ? 'assistant' : 'user',
  kind: n % 2 ? 'response' : 'prompt',
  text,
  source: { path: '/k.jsonl', line: n + 1 },
});

test('a bulk run killed between transactions leaves the merge settings and the index as usual', () => {
  const file = join(root, 'killed.db');
  const store = createSqliteTranscriptStore(openDatabase(file), file);
  const other = new Database(file, { readonly: true });
  try {
    store.beginBulkWrites?.();
    for (let batch = 0; batch < 3; batch++) {
      store.write((w) => {
        w.upsertThread({ id: 'claude-code:k', agent: 'claude-code', sessionId: 'k', source: '/k.jsonl' });
        for (let i = 0; i < 20; i++) {
          const n = batch * 20 + i;
          const s = prepareStep(
            step(n, `batch ${batch} turn ${n} about the zebra migration`),
            DEFAULT_POLICY,
          );
          assert.ok(s && seqOf(s) === n);
          w.upsertStep('claude-code:k', s, true);
        }
      });
      // What another process (or this one after a crash) sees at every commit.
      const seen = other
        .prepare('SELECT k, v FROM steps_fts_config WHERE k IN (?, ?) ORDER BY k')
        .all('automerge', 'crisismerge');
      assert.deepEqual(seen, [
        { k: 'automerge', v: 4 },
        { k: 'crisismerge', v: 16 },
      ]);
    }
    // One unmerged segment per transaction so far; searchable all along.
    assert.equal(ftsShape(file).segments, 3);
    const hits = other.prepare(`SELECT count(*) AS n FROM steps_fts WHERE steps_fts MATCH 'zebra'`).get() as {
      n: number;
    };
    assert.equal(hits.n, 60);
    // The run "dies" here: no end. The store's writes merge as they always did.
  } finally {
    other.close();
    store.close();
  }
  const again = createSqliteTranscriptStore(openDatabase(file), file);
  try {
    // Small commits, one segment each: FTS5's crisis merge (16 on a level) still bounds them.
    for (let n = 60; n < 80; n++)
      again.write((w) => {
        const s = prepareStep(step(n, `later turn ${n} about the zebra migration`), DEFAULT_POLICY);
        if (s) w.upsertStep('claude-code:k', s, true);
      });
    assert.ok(ftsShape(file).segments < 16, `${ftsShape(file).segments} segments`);
  } finally {
    again.close();
  }
});

test('ending bulk writes merges what they left and maps the file again', () => {
  const file = join(root, 'settled.db');
  const db = openDatabase(file);
  const store = createSqliteTranscriptStore(db, file);
  try {
    const mapped = db.pragma('mmap_size', { simple: true });
    store.beginBulkWrites?.();
    assert.equal(db.pragma('mmap_size', { simple: true }), 0);
    for (let batch = 0; batch < 6; batch++)
      store.write((w) => {
        w.upsertThread({ id: 'claude-code:k', agent: 'claude-code', sessionId: 'k', source: '/k.jsonl' });
        const s = prepareStep(step(batch, `turn ${batch} on the ledger rounding`), DEFAULT_POLICY);
        if (s) w.upsertStep('claude-code:k', s, true);
      });
    assert.equal(ftsShape(file).segments, 6);
    store.endBulkWrites?.(true);
    assert.equal(ftsShape(file).segments, 1);
    assert.equal(db.pragma('mmap_size', { simple: true }), mapped);
    // A run that failed ends without the merge (the next writes' automerge catches up).
    store.beginBulkWrites?.();
    store.write((w) => {
      const s = prepareStep(step(6, 'turn 6 on the ledger rounding'), DEFAULT_POLICY);
      if (s) w.upsertStep('claude-code:k', s, true);
    });
    store.endBulkWrites?.(false);
    assert.equal(ftsShape(file).segments, 2);
    assert.equal(db.pragma('mmap_size', { simple: true }), mapped);
  } finally {
    store.close();
  }
});
