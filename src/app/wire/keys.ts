/** Wiring for API keys (the HTTP server's auth): the SQLite key store. */
import { createKeyService, type KeyService } from '../../services/keys.js';
import type { KnowledgeContext } from '../knowledge.js';

export function wireKeys(ctx: KnowledgeContext): { keys: KeyService } {
  return { keys: createKeyService({ store: ctx.stores.keys }) };
}
