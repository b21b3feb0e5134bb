/** API keys over HTTP (admin scope): list, create (the key is in the answer, once), revoke. */
import { z } from 'zod';
import type { RoutesContext } from '../context.js';
import { addRoute } from '../route.js';

export const KeyCreateBody = z.strictObject({
  name: z.string().min(1).max(100),
  spaces: z
    .array(z.string().min(1).max(64))
    .max(100)
    .optional()
    .describe('Spaces it sees (none: every space)'),
  scope: z.enum(['read', 'write', 'admin']).optional().describe('Default read'),
  expires: z.string().max(64).optional().describe('30d, 12h, 2w, or a date'),
});

export function registerKeyRoutes({ app, registry }: RoutesContext): void {
  const tag = 'keys';
  addRoute(app, registry, {
    method: 'get',
    path: '/v1/keys',
    tag,
    summary: 'Keys (never their secrets)',
    need: 'admin',
    returns: '{keys}',
    handler: async ({ engine }) => ({ keys: await engine.keys.list() }),
  });
  addRoute(app, registry, {
    method: 'post',
    path: '/v1/keys',
    tag,
    summary: 'Create a key; `key` is shown in this answer only',
    need: 'admin',
    body: KeyCreateBody,
    status: 201,
    returns: '{key, id, name, prefix, scope, spaces, created_at, expires_at, …}',
    async handler({ engine, body }) {
      const { key, record } = await engine.keys.create(body);
      return { key, ...record };
    },
  });
  addRoute(app, registry, {
    method: 'delete',
    path: '/v1/keys/:id',
    tag,
    summary: 'Revoke a key (it stops working at once)',
    need: 'admin',
    params: z.object({ id: z.string().min(1).max(100) }),
    handler: ({ engine, params }) => engine.keys.revoke(params.id),
  });
}
