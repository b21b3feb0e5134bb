/**
 * What the Nowledge Mem compatibility routes share: space and agent names mapped to Tapedeck's, and
 * failures answered as Tapedeck's error body plus the flat fields Nowledge clients read.
 */
import type { Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';
import { isTapedeckError } from '../../../core/errors.js';
import type { AgentId } from '../../../core/types.js';
import { agentForSource } from '../../../services/saved-threads/input.js';
import type { HttpEnv } from '../env.js';
import { errorBody, HttpError, statusOf } from '../errors.js';
import { type AnyObject, addRoute, type RouteRegistry, type RouteSpec } from '../route.js';

const COMPAT_TAG = 'nowledge compat';

/**
 * Register a compatibility route. Its answer is Nowledge Mem's wire shape (camelCase where Nowledge
 * writes it), so it is sent exactly as the handler builds it, not renamed to Tapedeck's naming.
 */
export function addCompatRoute<P extends AnyObject, Q extends AnyObject, B extends z.ZodType>(
  app: Hono<HttpEnv>,
  registry: RouteRegistry,
  spec: Omit<RouteSpec<P, Q, B>, 'tag' | 'wire'>,
): void {
  addRoute(app, registry, { ...spec, tag: COMPAT_TAG, wire: 'as-is' });
}

/** A Nowledge space name as a Tapedeck space: lowercase words joined by single dashes. */
export function compatSpace(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const s = value
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
  return s === '' ? undefined : s;
}

/** `source_app` (google-antigravity, claude-code, codex, gemini-cli, …) as a Tapedeck agent. */
export function compatAgent(source: unknown): AgentId | undefined {
  if (typeof source !== 'string') return undefined;
  const a = agentForSource(source);
  return a === 'other' ? undefined : a;
}

const snake = (code: string) => code.toLowerCase();

/**
 * A failure as an HTTP answer: Tapedeck's error body plus `error_code`, `detail` and `status`.
 * Anything that is not a Tapedeck or HTTP error is rethrown (a logged 500).
 */
export function compatFailure(c: Context<HttpEnv>, e: unknown, notFoundCode = 'not_found'): Response {
  if (e instanceof HttpError) {
    for (const [k, v] of Object.entries(e.headers)) c.header(k, v);
    return c.json(
      {
        ...errorBody(e.code, e.message, e.details),
        error_code: snake(e.code),
        detail: e.message,
        status: e.status,
      },
      e.status,
    );
  }
  if (!isTapedeckError(e)) throw e;
  const status: ContentfulStatusCode = statusOf(e.code);
  if (status === 503) c.header('Retry-After', '1');
  if (status === 401) c.header('WWW-Authenticate', 'Bearer realm="tapedeck"');
  const reason = typeof e.details?.reason === 'string' ? e.details.reason : undefined;
  const code = reason ?? (e.code === 'NOT_FOUND' ? notFoundCode : snake(e.code));
  return c.json(
    {
      ...e.details,
      ...errorBody(e.code, e.message, e.details),
      error_code: code,
      detail: e.message,
      status,
    },
    status,
  );
}

/** Run a handler; Tapedeck errors become compat error answers. */
export async function guarded(
  c: Context<HttpEnv>,
  fn: () => unknown | Promise<unknown>,
  notFoundCode?: string,
): Promise<unknown> {
  try {
    return await fn();
  } catch (e) {
    return compatFailure(c, e, notFoundCode);
  }
}
