/** PostgreSQL SavedThreadStore (not written yet). */
import { HippoError } from '../../core/errors.js';
import type { SavedThreadStore } from '../../ports/saved-thread-store.js';
import type { PgStore } from './open.js';

export function createPgSavedThreadStore(_db: PgStore): SavedThreadStore {
  return new Proxy({} as SavedThreadStore, {
    get: (_t, k) => {
      if (k === 'then') return undefined;
      throw new HippoError('UNSUPPORTED', `SavedThreadStore.${String(k)} is not available on PostgreSQL yet`);
    },
  });
}
