/** Wiki pages by path (`/v1/wiki/pages/<path>`): list, search, read (also old versions), history, write, remove. */
import { z } from 'zod';
import { invalidInput } from '../../../core/errors.js';
import type { RoutesContext } from '../context.js';
import { addRoute } from '../route.js';
import { qInt, spaceField } from './schemas.js';

const PathParams = z.object({
  path: z.string().min(1).max(1000).describe('Page path, e.g. runbooks/deploy.md'),
});
const SpaceQuery = z.object({ space: spaceField.optional() });

export const WikiListQuery = z.object({
  prefix: z.string().max(1000).optional().describe('Only under this folder'),
  space: spaceField.optional(),
});
export const WikiSearchQuery = z.object({
  q: z.string().min(1).max(2000),
  prefix: z.string().max(1000).optional(),
  space: spaceField.optional(),
  limit: qInt(1, 100, 'Hits (default 10)'),
});
export const WikiReadQuery = z.object({
  version: qInt(1, 1_000_000, 'An earlier version'),
  space: spaceField.optional(),
});
export const WikiWriteBody = z.strictObject({
  content: z
    .string()
    .min(1)
    .max(512 * 1024)
    .describe('Markdown (title from its first heading)'),
  expected_version: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('Write only if the page is at this version (0: must not exist)'),
  space: spaceField.optional(),
});

export function registerWikiRoutes({ app, registry }: RoutesContext): void {
  const tag = 'wiki';
  addRoute(app, registry, {
    method: 'get',
    path: '/v1/wiki',
    tag,
    summary: 'Live pages under a folder, by path',
    query: WikiListQuery,
    returns: '{pages}',
    handler: async ({ engine, query }) => ({
      pages: await engine.wiki.list(query.prefix, { space: query.space }),
    }),
  });
  addRoute(app, registry, {
    method: 'get',
    path: '/v1/wiki/search',
    tag,
    summary: 'Full-text search over live pages',
    query: WikiSearchQuery,
    returns: '{query, hits}',
    handler: ({ engine, query: { q, ...opts } }) => engine.wiki.search(q, opts),
  });
  addRoute(app, registry, {
    method: 'get',
    path: '/v1/wiki/pages/:path{.+}',
    tag,
    summary: 'A page (or an earlier version)',
    params: PathParams,
    query: WikiReadQuery,
    handler: ({ engine, params, query }) => engine.wiki.read(params.path, query),
  });
  addRoute(app, registry, {
    method: 'get',
    path: '/v1/wiki/history/:path{.+}',
    tag,
    summary: 'Every version of a page, oldest first',
    params: PathParams,
    query: SpaceQuery,
    handler: ({ engine, params, query }) => engine.wiki.history(params.path, query),
  });
  addRoute(app, registry, {
    method: 'put',
    path: '/v1/wiki/pages/:path{.+}',
    tag,
    summary: 'Create or replace a page (same text again: no new version)',
    description:
      'The space comes from `?space=` or the body’s `space` (naming two different ones is an error), like every other wiki route.',
    params: PathParams,
    query: SpaceQuery,
    body: WikiWriteBody,
    returns: '{path, title, version, status, redactions} (201 when created)',
    bodyLimit: 1024 * 1024,
    async handler({ c, engine, params, query, body }) {
      if (query.space !== undefined && body.space !== undefined && query.space !== body.space)
        throw invalidInput(
          `space: ?space=${query.space} and the body's space ${body.space} differ; name one`,
        );
      const r = await engine.wiki.write(params.path, body.content, {
        space: body.space ?? query.space,
        expectedVersion: body.expected_version,
      });
      return c.json(r, r.status === 'created' ? 201 : 200);
    },
  });
  addRoute(app, registry, {
    method: 'delete',
    path: '/v1/wiki/pages/:path{.+}',
    tag,
    summary: 'Remove a page (its versions stay readable; writing it again restores it)',
    params: PathParams,
    query: SpaceQuery,
    handler: ({ engine, params, query }) => engine.wiki.remove(params.path, query),
  });
}
