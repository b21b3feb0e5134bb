/**
 * The keys service seen through a gate: only admin keys manage keys, and an admin key limited
 * to some spaces creates, lists and revokes only keys limited to (some of) those spaces.
 */
import type { ApiKeyRecord } from '../../core/api-keys.js';
import { notFound } from '../../core/errors.js';
import type { KeyService } from '../keys.js';
import { forbidden, type Gate } from './access.js';

export function scopeKeys(keys: KeyService, gate: Gate): KeyService {
  const within = (k: Pick<ApiKeyRecord, 'spaces'>) =>
    !gate.restricted || (k.spaces.length > 0 && k.spaces.every(gate.sees));
  return {
    async create(input) {
      gate.require('admin', 'creating a key');
      if (gate.restricted) {
        const spaces = input.spaces?.length ? input.spaces : [...(gate.access.spaces ?? [])];
        if (!spaces.every((s) => gate.sees(s)))
          throw forbidden('An admin key limited to spaces can only create keys for those spaces');
        return keys.create({ ...input, spaces });
      }
      return keys.create(input);
    },
    async list() {
      gate.require('admin', 'listing keys');
      return (await keys.list()).filter(within);
    },
    async revoke(id) {
      gate.require('admin', 'revoking a key');
      const k = (await keys.list()).find((x) => x.id === id);
      if (!k || !within(k)) throw notFound(`No key "${id}"`);
      return keys.revoke(id);
    },
    verify: (presented) => keys.verify(presented),
    hasActiveKeys: () => keys.hasActiveKeys(),
  };
}
