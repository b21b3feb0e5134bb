/** PostgreSQL ContextBundleStore (not written yet). */
import { HippoError } from '../../core/errors.js';
import type { ContextBundleStore } from '../../ports/context-bundle-store.js';
import type { PgStore } from './open.js';

export function createPgContextBundleStore(_db: PgStore): ContextBundleStore {
  return new Proxy({} as ContextBundleStore, {
    get: (_t, k) => {
      if (k === 'then') return undefined;
      throw new HippoError(
        'UNSUPPORTED',
        `ContextBundleStore.${String(k)} is not available on PostgreSQL yet`,
      );
    },
  });
}
