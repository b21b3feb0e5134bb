/**
 * A run that stops after committing part of a long transcript (killed, or the store went away)
 * leaves a cursor mid-file. The next run must read the rest of that file from the cursor, not
 * take it for unchanged: its size and time have not changed since the cursor was saved. Real
 * files and a real SQLite store; the failure is a storage error after the first commits.
 */
import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import { after, test } from 'node:test';
import { TapedeckError } from '../src/core/errors.js';
import { createIndexer } from '../src/ingest/indexer.js';
import type { TranscriptStore } from '../src/ports/transcript-store.js';
import { ADAPTERS } from '../src/sources/registry.js';
import { claudeLine, claudePath, tempHome } from './support/home.js';

const S = '11111111-2222-4333-8444-555555555555';

/** The store, but every write after the first `n` fails as a lost database would. */
function failingAfter(store: TranscriptStore, n: number): TranscriptStore {
  let writes = 0;
  return new Proxy(store, {
    get(target, key) {
      if (key === 'write')
        return (fn: Parameters<TranscriptStore['write']>[0]) => {
          if (++writes > n) throw new TapedeckError('STORAGE_UNAVAILABLE', 'the database went away');
          return target.write(fn);
        };
      const v = Reflect.get(target, key);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

test('a run stopped mid-file resumes that file from its cursor; nothing is lost or duplicated', () => {
  const h = tempHome({ TAPEDECK_ARCHIVE: '0' });
  after(h.cleanup);
  const lines = Array.from({ length: 100 }, (_, i) =>
    claudeLine(S, i % 2 ? 'assistant' : 'user', `turn ${i}: the widget cache misses order ${1000 + i}`),
  );
  const path = h.write(claudePath(S), `${lines.join('\n')}\n`);
  const engine = h.engine();
  after(() => engine.close());
  const { store, locateEnv: env } = engine;
  const count = () => engine.store.stats().steps;

  // Batches of 10 steps: the first two commits cover part of the file, then the store fails.
  const broken = createIndexer({ store: failingAfter(store, 2), adapters: ADAPTERS, env, batchSteps: 10 });
  assert.throws(() => broken.run(), /went away/);
  const partial = count();
  assert.ok(partial > 0 && partial < 100, `stopped mid-file (${partial} steps committed)`);

  const indexer = createIndexer({ store, adapters: ADAPTERS, env, batchSteps: 10 });
  const resumed = indexer.run();
  assert.equal(resumed.files.updated, 1, 'the file is read again, not skipped as unchanged');
  assert.equal(resumed.steps.written, 100 - partial, 'only the steps not committed yet');
  assert.equal(count(), 100);

  const again = indexer.run();
  assert.deepEqual([again.files.unchanged, again.steps.written], [1, 0]);
  appendFileSync(path, `${claudeLine(S, 'user', 'one more turn about the widget cache')}\n`);
  assert.equal(indexer.run().steps.written, 1);
  assert.equal(count(), 101);
});
