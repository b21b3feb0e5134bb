/**
 * Routes as data: method, path, zod schemas for params, query and body, the scope the route
 * needs, and a handler. `addRoute` validates with the schemas before the handler runs, and the
 * same objects feed the OpenAPI document (openapi.ts), so the two cannot drift apart.
 */
import type { Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import type { Engine } from '../../app/engine.js';
import type { Access } from '../../app/scoped-engine.js';
import { parseWith } from '../../catalog/index.js';
import { type KeyScope, scopeAllows } from '../../core/api-keys.js';
import { invalidInput, TapedeckError } from '../../core/errors.js';
import { toJsonDocument } from '../json-document.js';
import { readJson } from './body.js';
import type { HttpEnv } from './env.js';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

// biome-ignore lint/suspicious/noExplicitAny: a route's schemas are any zod object
export type AnyObject = z.ZodObject<any>;

export interface RouteInput<P, Q, B> {
  c: Context<HttpEnv>;
  engine: Engine;
  access: Access;
  params: P;
  query: Q;
  body: B;
}

export interface RouteSpec<
  P extends AnyObject = AnyObject,
  Q extends AnyObject = AnyObject,
  B extends z.ZodType = z.ZodType,
> {
  method: Method;
  /** Hono syntax: `/v1/threads/:id`, `/v1/wiki/pages/:path{.+}`. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  params?: P;
  query?: Q;
  body?: B;
  /** The body is optional (an empty body validates as `{}`). */
  bodyOptional?: boolean;
  /** Bytes accepted in the body (default 1 MiB). */
  bodyLimit?: number;
  /** Scope needed (default: read for GET, write otherwise). */
  need?: KeyScope;
  /** Success status (default 200). */
  status?: ContentfulStatusCode;
  /** What the success response holds (for the document). */
  returns?: string;
  /** The success response's schema (catalogue operations), for the document. */
  output?: z.ZodType;
  /**
   * `as-is`: the answer is sent exactly as the handler builds it — the services' own values for
   * `/v1/rpc` (the remote client rebuilds domain objects from them), another API's wire shape for
   * the compatibility routes. Default: the one JSON naming of
   * json-document.ts (snake_case, a thread as `thread`, empty fields `null`), as the CLI prints.
   */
  wire?: 'as-is';
  handler: (input: RouteInput<z.output<P>, z.output<Q>, z.output<B>>) => unknown | Promise<unknown>;
}

/** Where routes are collected, with the default body limit for those that set none. */
export interface RouteRegistry {
  readonly routes: RouteSpec[];
  readonly bodyLimit: number;
}

/** Query parameters as strings, or lists when repeated (`?agent=a&agent=b`). */
function queryObject(c: Context): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(c.req.queries())) out[k] = v.length === 1 ? v[0] : v;
  return out;
}

const EMPTY = z.object({});

/** Register a route on the app and in the registry. */
export function addRoute<P extends AnyObject, Q extends AnyObject, B extends z.ZodType>(
  app: Hono<HttpEnv>,
  registry: RouteRegistry,
  input: RouteSpec<P, Q, B>,
): void {
  const spec = { ...input, bodyLimit: input.bodyLimit ?? registry.bodyLimit };
  registry.routes.push(spec as unknown as RouteSpec);
  const need = spec.need ?? (spec.method === 'get' ? 'read' : 'write');
  app.on(spec.method.toUpperCase(), spec.path, async (c) => {
    const access = c.get('access');
    if (!scopeAllows(access.scope, need))
      throw new TapedeckError(
        'FORBIDDEN',
        `This key has ${access.scope} scope; ${spec.method.toUpperCase()} ${spec.path} needs ${need}`,
      );
    const params = parseWith(spec.params ?? EMPTY, c.req.param(), 'params');
    const query = parseWith(spec.query ?? EMPTY, queryObject(c), 'query');
    let body: unknown;
    if (spec.body) {
      const raw = await readJson(c, spec.bodyLimit);
      if (raw === undefined && !spec.bodyOptional) throw invalidInput('The request needs a JSON body');
      body = parseWith(spec.body, raw ?? {}, 'body');
    }
    const out = await spec.handler({
      c,
      engine: c.get('engine'),
      access,
      params: params as z.output<P>,
      query: query as z.output<Q>,
      body: body as z.output<B>,
    });
    if (out instanceof Response) return out;
    const doc = spec.wire === 'as-is' ? out : toJsonDocument(out);
    return c.json(doc as object, spec.status ?? 200);
  });
}
