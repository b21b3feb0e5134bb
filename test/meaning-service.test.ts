/**
 * The meaning service where the model misbehaves (the real model is in test/meaning.test.ts): a
 * store without vectors never loads the model; a model that cannot run makes `embed` fail with a
 * clear error and nothing stored, and makes search fall back to words alone with one warning.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TapedeckError } from '../src/core/errors.js';
import type { Embedder } from '../src/ports/embedder.js';
import { createMeaningService } from '../src/services/meaning.js';
import { createTranscriptService } from '../src/services/transcripts.js';
import { indexedHome } from './support/backends.js';
import { claudeLine, claudePath } from './support/home.js';

const TURNS = ['how do we rotate the signing keys?', 'Rotate them with the vault CLI, weekly.'];

function counting(fail = false): Embedder & { calls: number } {
  const e = {
    model: 'test-3',
    calls: 0,
    async embed(texts: readonly string[]) {
      e.calls++;
      if (fail) throw new Error('wasm backend failed to start');
      return texts.map((t) => Float32Array.from([t.length, 1, 0]));
    },
  };
  return e;
}

test('with no vectors stored the model is never loaded and search is words alone', async (t) => {
  const { engine } = indexedHome(t, 'sqlite', '00000000-0000-4000-8000-0000000000c1', TURNS);
  const embedder = counting();
  const meaning = createMeaningService(engine.stores.vectors, embedder);
  assert.equal(await meaning.of('signing keys'), null);
  assert.equal(embedder.calls, 0);
  assert.deepEqual(meaning.status(), { model: 'test-3', embedded: 0, total: 2 });
});

test('a model that cannot run: embed says so and stores nothing; search falls back with one warning', async (t) => {
  const { engine } = indexedHome(t, 'sqlite', '00000000-0000-4000-8000-0000000000c2', TURNS);
  const broken = createMeaningService(engine.stores.vectors, counting(true));
  await assert.rejects(
    broken.embed(),
    (e: unknown) => e instanceof TapedeckError && e.code === 'UNSUPPORTED' && /wasm backend/.test(e.message),
  );
  assert.equal(broken.status().embedded, 0);

  // Vectors from a working run, then the model breaks: one warning, then words alone.
  await createMeaningService(engine.stores.vectors, counting()).embed();
  const warnings: string[] = [];
  const failing = counting(true);
  const later = createMeaningService(engine.stores.vectors, failing, (m) => warnings.push(m));
  assert.equal(await later.of('signing keys'), null);
  assert.equal(await later.of('vault'), null);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!, /words alone/);
  assert.equal(failing.calls, 1, 'a broken model is not retried on every search');
  // A search whose words leave the question unexplained still answers, without retrying the model.
  const search = createTranscriptService(engine.store, engine.indexer, undefined, later.of);
  const r = await search.search('rotate the keys vault nowhere', { explain: true });
  assert.ok(r.hits.length > 0);
  assert.equal(r.reading?.meaning, false);
  assert.equal(failing.calls, 1);
});

test('the question is embedded only when its words leave part of it unexplained', async (t) => {
  const { engine } = indexedHome(t, 'sqlite', '00000000-0000-4000-8000-0000000000c3', TURNS);
  const embedder = counting();
  const meaning = createMeaningService(engine.stores.vectors, embedder);
  await meaning.embed();
  const search = createTranscriptService(engine.store, engine.indexer, undefined, meaning.of);
  const before = embedder.calls;
  // One step holds every word: meaning could not move a step, so the model is not asked.
  const whole = await search.search('rotate the signing keys', { explain: true });
  assert.equal(embedder.calls, before);
  assert.equal(whole.reading?.meaning, false);
  // A word no step holds: the words leave part of the question open, and meaning counts.
  const open = await search.search('rotate the signing keys quarterly', { explain: true });
  assert.equal(embedder.calls, before + 1);
  assert.equal(open.reading?.meaning, true);
  assert.ok(open.hits.some((h) => h.explain?.meaning !== undefined));
  // Words alone when asked: no embedding, the same steps as the words give.
  const plain = await search.search('rotate the signing keys quarterly', { meaning: false });
  assert.equal(embedder.calls, before + 1);
  assert.ok(plain.hits.length > 0);
});

test('under a filter the steps nearest in meaning are the nearest that pass it, not the nearest overall', async (t) => {
  // Thread A: the answer ("marsupial") shares no word with the question; thread B: 40 steps
  // closer to the question in meaning than the answer, outside the filter.
  const { h, engine, thread } = indexedHome(t, 'sqlite', '00000000-0000-4000-8000-0000000000c5', [
    'what were the garden plans again?',
    'They are on the wiki page.',
    'And the animals?',
    'the marsupial enclosure goes by the shed',
  ]);
  const other = '00000000-0000-4000-8000-0000000000c6';
  const decoys = Array.from({ length: 40 }, (_, i) => `decoy remark number ${i}`);
  h.write(
    claudePath(other),
    `${decoys.map((d, i) => claudeLine(other, i % 2 ? 'assistant' : 'user', d)).join('\n')}\n`,
  );
  engine.transcripts.index();
  const byText: Embedder = {
    model: 'test-3',
    async embed(texts) {
      return texts.map((x) =>
        Float32Array.from(
          /marsupial/.test(x) ? [0.8, 0.6, 0] : /decoy|quokka/.test(x) ? [1, 0, 0] : [0, 0, 1],
        ),
      );
    },
  };
  const meaning = createMeaningService(engine.stores.vectors, byText);
  await meaning.embed();
  const search = createTranscriptService(engine.store, engine.indexer, undefined, meaning.of);
  const steps = async (meaningOn: boolean) =>
    (await search.search('garden quokka', { thread, meaning: meaningOn })).hits.map((x) => x.step);
  assert.ok(!(await steps(false)).includes(3), 'the words alone do not find the answer');
  assert.ok((await steps(true)).includes(3), 'the answer is the nearest step in the thread');
});
