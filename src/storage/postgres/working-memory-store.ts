/** PostgreSQL WorkingMemoryStore (not written yet). */
import { HippoError } from '../../core/errors.js';
import type { WorkingMemoryStore } from '../../ports/working-memory-store.js';
import type { PgStore } from './open.js';

export function createPgWorkingMemoryStore(_db: PgStore): WorkingMemoryStore {
  return new Proxy({} as WorkingMemoryStore, {
    get: (_t, k) => {
      if (k === 'then') return undefined;
      throw new HippoError(
        'UNSUPPORTED',
        `WorkingMemoryStore.${String(k)} is not available on PostgreSQL yet`,
      );
    },
  });
}
