/** PostgreSQL KeyStore (not written yet). */
import { HippoError } from '../../core/errors.js';
import type { KeyStore } from '../../ports/key-store.js';
import type { PgStore } from './open.js';

export function createPgKeyStore(_db: PgStore): KeyStore {
  return new Proxy({} as KeyStore, {
    get: (_t, k) => {
      if (k === 'then') return undefined;
      throw new HippoError('UNSUPPORTED', `KeyStore.${String(k)} is not available on PostgreSQL yet`);
    },
  });
}
