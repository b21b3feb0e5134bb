/**
 * PostgreSQL memory search scores most rows from their stored tsvector (phrase counts, FTS5 row
 * size) and re-tokenizes only rows whose vector hit a tsvector limit (over 256 positions of one
 * word, a word over 200 characters). Both kinds of row, side by side, rank exactly as on SQLite.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BackendKind } from '../../src/ports/stores.js';
import { createMemoryService } from '../../src/services/memories.js';
import { createSpaceService } from '../../src/services/spaces.js';
import { openPg } from '../../src/storage/postgres/open.js';
import { openTestStores, POSTGRES } from '../support/backends.js';

const LONG = 'z'.repeat(230);
const DOCS = [
  `alpha ${'beta '.repeat(300)} gamma`,
  'beta gamma delta',
  `${'filler '.repeat(1500)} omega alpha beta ${'a '.repeat(300)}`,
  `alpha ${LONG} kappa`,
  'kappa lambda alpha beta alpha',
  'betas betting beta-blocker alphabet handleWebhook src/db.ts',
  'handle_webhook ready; src_db_ts loaded alpha. Beta release notes',
  'Ünïcödé naïve café alpha über beta',
];
const QUERIES = [
  'alpha',
  'beta',
  'alpha beta',
  '"alpha beta"',
  'bet*',
  'kappa',
  LONG,
  'omega',
  'alpha -kappa',
  'handleWebhook',
  'src/db.ts',
  '"gamma delta"',
  'lambda alp*',
  'cafe naive',
  '"beta release" notes',
];

function searchAll(backend: BackendKind): { results: [number, number][][]; exact?: boolean[] } {
  const { stores, url, cleanup } = openTestStores(backend);
  try {
    let clock = Date.parse('2026-06-01T12:00:00.000Z');
    const svc = createMemoryService({
      store: stores.memories,
      spaces: createSpaceService(),
      threads: { getThread: () => undefined, getSteps: () => [] },
      now: () => (clock += 1000),
    });
    const ids = DOCS.map((content, i) => svc.add({ content, labels: [`l${i}`] }).id);
    const results = QUERIES.map((q) =>
      svc.search(q, { limit: 10 }).hits.map((h) => [ids.indexOf(h.id), h.score] as [number, number]),
    );
    if (!url) return { results };
    const db = openPg(url);
    try {
      const exact = db.pg
        .query<{ fts_exact: boolean }>('SELECT fts_exact FROM memories ORDER BY mid')
        .map((r) => r.fts_exact);
      return { results, exact };
    } finally {
      db.pg.close();
    }
  } finally {
    cleanup();
  }
}

test('rows past tsvector limits are re-tokenized, the rest scored from their vectors, both as SQLite ranks', {
  skip: POSTGRES.skip,
}, () => {
  const sqlite = searchAll('sqlite');
  const pg = searchAll('postgres');
  assert.deepEqual(pg.exact, [false, true, false, false, true, true, true, true]);
  QUERIES.forEach((q, i) => {
    const a = sqlite.results[i]!;
    const b = pg.results[i]!;
    assert.deepEqual(
      b.map((h) => h[0]),
      a.map((h) => h[0]),
      `hits for ${q.slice(0, 30)}`,
    );
    for (const [k, h] of b.entries())
      assert.ok(Math.abs(h[1] - a[k]![1]) < 1e-9, `score ${k} for ${q.slice(0, 30)}`);
  });
  assert.ok(sqlite.results.some((r) => r.length > 1));
});
