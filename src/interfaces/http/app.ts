/**
 * The HTTP API as a Hono app, with no socket: `createHttpApp(engine, options)`. server.ts binds
 * it; tests call `app.request()`. Routes live in routes/<area>.ts as data (route.ts), errors are
 * mapped once (errors.ts), and every route but the public paths (auth.ts PUBLIC_PATHS) passes
 * auth, which hands the route the engine as the caller may see it.
 */
import type { Context } from 'hono';
import { Hono } from 'hono';
import type { Engine } from '../../app/engine.js';
import { ensureLocalToken } from '../../app/local-token.js';
import { redact } from '../../core/redact.js';
import { authMiddleware } from './auth.js';
import { MiB } from './body.js';
import type { RoutesContext } from './context.js';
import type { HttpEnv } from './env.js';
import { errorBody, errorResponse } from './errors.js';
import type { RouteSpec } from './route.js';
import { registerActivityRoutes } from './routes/activity.js';
import { registerContextRoutes, registerWorkingMemoryRoutes } from './routes/briefings.js';
import { registerCatalogRoutes } from './routes/catalog.js';
import { registerCompatRoutes } from './routes/compat.js';
import { registerFsRoutes } from './routes/fs.js';
import { registerMcpRoutes } from './routes/mcp.js';
import { registerMemoryRoutes } from './routes/memories.js';
import { registerRpcRoutes } from './routes/rpc.js';
import { registerSavedThreadRoutes } from './routes/saved-threads.js';
import { registerSkillRoutes } from './routes/skills.js';
import { registerHealthRoutes, registerOpenRoutes } from './routes/system.js';
import { registerTranscriptRoutes } from './routes/transcripts.js';
import { registerWikiRoutes } from './routes/wiki.js';
import { createThrottle, type ThrottleOptions } from './throttle.js';
import { registerWebPage } from './web-page.js';

export interface HttpAppOptions {
  /** Every request needs an API key (set when the server binds a non-loopback address). */
  requireKeys?: boolean;
  /** The client's address; default: the Node socket's remote address. */
  clientAddress?: (c: Context<HttpEnv>) => string | undefined;
  /** Bytes accepted in a body (default 1 MiB). */
  bodyLimit?: number;
  /** Bytes accepted in a thread import/append/reconcile body and on /mcp (default 16 MiB). */
  threadBodyLimit?: number;
  /** Refresh the transcript index before transcript reads at most this often (0 = never, the default). */
  refreshMs?: number;
  /** How failed keys are slowed down. */
  throttle?: ThrottleOptions;
  /** One line per event, to stderr by default. Never given keys or Authorization headers. */
  log?: (line: string) => void;
  /** Log one line per request (method, path without query, status, ms, principal). */
  logRequests?: boolean;
  /** Server processes sharing the port (`tapedeck serve --workers`; /health reports it). Default 1. */
  workers?: number;
  /** The owner token keyless requests carry; default: `<home>/local-token`, created when missing. */
  localToken?: string;
  /** The hook queue's state on this machine, for GET /v1/doctor (the CLI's serve passes it). */
  queueState?: () => unknown;
  /** Where the built web page is (default: dist/web). */
  webRoot?: string;
}

export type HttpApp = Hono<HttpEnv> & {
  /** Every documented route (what /openapi.json is built from). */
  readonly routes: readonly RouteSpec[];
  /** Requests being handled now (graceful shutdown waits for them). */
  inFlight(): number;
};

const socketAddress = (c: Context<HttpEnv>) => c.env?.incoming?.socket?.remoteAddress;

export function createHttpApp(
  engine: Engine,
  {
    requireKeys = false,
    clientAddress = socketAddress,
    bodyLimit = MiB,
    threadBodyLimit = 16 * MiB,
    refreshMs = 0,
    throttle,
    log = (line) => process.stderr.write(`tapedeck serve: ${redact(line).text}\n`),
    logRequests = false,
    workers = 1,
    localToken,
    queueState,
    webRoot,
  }: HttpAppOptions = {},
): HttpApp {
  const app = new Hono<HttpEnv>();
  const routes: RouteSpec[] = [];
  const state = { startedAt: Date.now(), lastIndexAt: null as number | null, inFlight: 0, workers };
  let lastRefresh = 0;
  const ctx: RoutesContext = {
    app,
    registry: { routes, bodyLimit },
    threadBodyLimit,
    state,
    log,
    indexed: (at) => {
      state.lastIndexAt = at;
    },
    fresh() {
      if (refreshMs <= 0 || Date.now() - lastRefresh < refreshMs) return;
      lastRefresh = Date.now();
      try {
        engine.transcripts.index();
        state.lastIndexAt = Date.now();
      } catch (e) {
        log(`index refresh failed: ${(e as Error).message}`);
      }
    },
  };

  app.use(async (c, next) => {
    const t0 = performance.now();
    state.inFlight++;
    try {
      await next();
    } finally {
      state.inFlight--;
      if (logRequests) {
        const who = c.get('access')?.principal ?? '-';
        log(`${c.req.method} ${c.req.path} ${c.res.status} ${(performance.now() - t0).toFixed(1)}ms ${who}`);
      }
    }
  });
  app.onError((e, c) => errorResponse(c, e, log));
  app.notFound((c) =>
    c.json(errorBody('NOT_FOUND', `No route ${c.req.method} ${c.req.path}; see /openapi.json`), 404),
  );

  registerOpenRoutes(ctx);
  registerWebPage(app, webRoot);
  app.use(
    authMiddleware({
      engine,
      requireKeys,
      throttle: createThrottle(throttle),
      clientAddress,
      // A keys-only server has no owner token: another machine could not read it anyway.
      localToken: requireKeys ? undefined : (localToken ?? ensureLocalToken(engine.config.tapedeckHome)),
    }),
  );
  registerHealthRoutes(ctx);
  registerTranscriptRoutes(ctx);
  registerActivityRoutes(ctx, { queueState });
  registerMemoryRoutes(ctx);
  registerCatalogRoutes(ctx);
  registerSkillRoutes(ctx);
  registerWikiRoutes(ctx);
  registerSavedThreadRoutes(ctx);
  // Services still landing in the engine are mounted only when present.
  if (engine.workingMemory) registerWorkingMemoryRoutes(ctx);
  if (engine.contextBundle) registerContextRoutes(ctx);
  if (engine.fs) registerFsRoutes(ctx);
  registerRpcRoutes(ctx);
  registerMcpRoutes(ctx);
  // Nowledge Mem's plugin paths (/context, /threads/…, /memories…), same auth and engine view.
  registerCompatRoutes(ctx);

  return Object.assign(app, { routes, inFlight: () => state.inFlight }) as HttpApp;
}
