/** PostgreSQL TranscriptStore (not written yet). */
import { HippoError } from '../../core/errors.js';
import type { TranscriptStore } from '../../ports/transcript-store.js';
import type { PgStore } from './open.js';

export function createPgTranscriptStore(_db: PgStore): TranscriptStore {
  return new Proxy({} as TranscriptStore, {
    get: (_t, k) => {
      if (k === 'then') return undefined;
      throw new HippoError('UNSUPPORTED', `TranscriptStore.${String(k)} is not available on PostgreSQL yet`);
    },
  });
}
