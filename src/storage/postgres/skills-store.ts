/** PostgreSQL SkillsStore (not written yet). */
import { HippoError } from '../../core/errors.js';
import type { SkillsStore } from '../../ports/skills-store.js';
import type { PgStore } from './open.js';

export function createPgSkillsStore(_db: PgStore): SkillsStore {
  return new Proxy({} as SkillsStore, {
    get: (_t, k) => {
      if (k === 'then') return undefined;
      throw new HippoError('UNSUPPORTED', `SkillsStore.${String(k)} is not available on PostgreSQL yet`);
    },
  });
}
