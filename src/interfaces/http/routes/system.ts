/** Liveness, health (version, store, index freshness, uptime) and the OpenAPI document. */
import { z } from 'zod';
import { VERSION } from '../../../app/version.js';
import type { RoutesContext } from '../context.js';
import { buildOpenApi } from '../openapi.js';
import { addRoute } from '../route.js';

/** Routes that answer without a key: registered before the auth middleware. */
export function registerOpenRoutes({ app, registry }: RoutesContext): void {
  app.get('/livez', (c) => c.json({ status: 'ok' }));
  // Built on first request, when every route is registered.
  let doc: object | undefined;
  app.get('/openapi.json', (c) => {
    doc ??= buildOpenApi(registry.routes);
    return c.json(doc);
  });
}

export function registerHealthRoutes(ctx: RoutesContext): void {
  addRoute(ctx.app, ctx.registry, {
    method: 'get',
    path: '/health',
    tag: 'system',
    summary: 'Version, store, index freshness and uptime',
    query: z.object({}),
    returns:
      '{status, version, store: {backend, path}, index: {files, threads, steps, last_updated, last_indexed_at}, uptime_s, in_flight, workers, pid}; in_flight, uptime_s, last_indexed_at and pid: the answering process',
    handler({ engine }) {
      const s = engine.stats();
      const last = Object.values(s.perAgent)
        .map((a) => a.lastUpdated)
        .filter((x): x is string => !!x)
        .sort()
        .at(-1);
      const { startedAt, lastIndexAt, inFlight, workers } = ctx.state;
      return {
        status: 'ok',
        version: VERSION,
        store: { backend: s.backend, path: s.path },
        index: {
          files: s.files,
          threads: s.threads,
          steps: s.steps,
          last_updated: last ?? null,
          last_indexed_at: lastIndexAt ? new Date(lastIndexAt).toISOString() : null,
        },
        uptime_s: Math.round((Date.now() - startedAt) / 1000),
        in_flight: inFlight,
        workers,
        pid: process.pid,
      };
    },
  });
}
