/**
 * A date in the question lifts the steps of that day — and it can only lift what the index read:
 * among many look-alike sessions (the same prompt and answer every day) the day the question names
 * must still come first, on every backend, though the plain read keeps only some of the copies.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BACKENDS, backendHome } from '../support/backends.js';
import { claudeLine, claudePath } from '../support/home.js';

const DAYS = 240;
const id = (n: number) => `${String(n).padStart(8, '0')}-dddd-4bbb-8ccc-dddddddddddd`;
const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);

for (const b of BACKENDS)
  test(`a dated question finds its day among ${DAYS} look-alike sessions (${b.name})`, {
    skip: b.skip,
  }, async () => {
    const h = backendHome(b.name);
    try {
      for (let n = 0; n < DAYS; n++) {
        const at = `${day(n)}T09:00:00.000Z`;
        h.write(
          claudePath(id(n)),
          `${[
            claudeLine(
              id(n),
              'user',
              'The nightly invoice export failed again, can you check the export job?',
              at,
            ),
            claudeLine(
              id(n),
              'assistant',
              'The export job timed out on the invoices table; I raised its timeout.',
              at,
            ),
          ].join('\n')}\n`,
        );
      }
      const engine = h.engine();
      try {
        engine.transcripts.index();
        for (const target of [3, 120, DAYS - 2]) {
          const now = Date.parse(`${day(target + 1)}T12:00:00.000Z`);
          const r = await engine.transcripts.search('why did the invoice export job fail yesterday?', {
            now,
            limit: 5,
          });
          assert.equal(r.hits[0]?.thread, `claude-code:${id(target)}`, `the session of ${day(target)} first`);
        }
      } finally {
        engine.close();
      }
    } finally {
      h.cleanup();
    }
  });
