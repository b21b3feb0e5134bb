/** PostgreSQL KnowledgeCatalog (not written yet). */
import { HippoError } from '../../core/errors.js';
import type { KnowledgeCatalog } from '../../ports/knowledge-catalog.js';
import type { PgStore } from './open.js';

export function createPgKnowledgeCatalog(_db: PgStore): KnowledgeCatalog {
  return new Proxy({} as KnowledgeCatalog, {
    get: (_t, k) => {
      if (k === 'then') return undefined;
      throw new HippoError('UNSUPPORTED', `KnowledgeCatalog.${String(k)} is not available on PostgreSQL yet`);
    },
  });
}
