/** PostgreSQL RuleStore (not written yet). */
import { HippoError } from '../../core/errors.js';
import type { RuleStore } from '../../ports/rule-store.js';
import type { PgStore } from './open.js';

export function createPgRuleStore(_db: PgStore): RuleStore {
  return new Proxy({} as RuleStore, {
    get: (_t, k) => {
      if (k === 'then') return undefined;
      throw new HippoError('UNSUPPORTED', `RuleStore.${String(k)} is not available on PostgreSQL yet`);
    },
  });
}
