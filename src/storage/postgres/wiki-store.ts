/** PostgreSQL WikiStore (not written yet). */
import { HippoError } from '../../core/errors.js';
import type { WikiStore } from '../../ports/wiki-store.js';
import type { PgStore } from './open.js';

export function createPgWikiStore(_db: PgStore): WikiStore {
  return new Proxy({} as WikiStore, {
    get: (_t, k) => {
      if (k === 'then') return undefined;
      throw new HippoError('UNSUPPORTED', `WikiStore.${String(k)} is not available on PostgreSQL yet`);
    },
  });
}
