/** PostgreSQL MemoryStore (not written yet). */
import { HippoError } from '../../core/errors.js';
import type { MemoryStore } from '../../ports/memory-store.js';
import type { PgStore } from './open.js';

export function createPgMemoryStore(_db: PgStore): MemoryStore {
  return new Proxy({} as MemoryStore, {
    get: (_t, k) => {
      if (k === 'then') return undefined;
      throw new HippoError('UNSUPPORTED', `MemoryStore.${String(k)} is not available on PostgreSQL yet`);
    },
  });
}
