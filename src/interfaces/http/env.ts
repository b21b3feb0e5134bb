/** What the HTTP layer keeps per request: the caller's access and the engine as it sees it. */
import type { HttpBindings } from '@hono/node-server';
import type { Engine } from '../../app/engine.js';
import type { Access } from '../../app/scoped-engine.js';

export interface HttpEnv {
  Bindings: Partial<HttpBindings>;
  Variables: { access: Access; engine: Engine };
}
