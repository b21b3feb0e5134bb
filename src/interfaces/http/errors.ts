/**
 * Errors mapped once for HTTP: a TapedeckError's code picks the status, every error body is
 * `{"error": {"code", "message", "details?"}}`, and anything unexpected is a 500 whose details
 * go to the log, not to the client.
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { type ErrorCode, isTapedeckError } from '../../core/errors.js';

/** A failure of the HTTP exchange itself (size, media type, rate), not of the domain. */
export class HttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

const STATUS: Partial<Record<ErrorCode, ContentfulStatusCode>> = {
  INVALID_INPUT: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  STORAGE_UNAVAILABLE: 503,
};

/** The HTTP status for a TapedeckError code (500 for codes with no better answer). */
export const statusOf = (code: ErrorCode): ContentfulStatusCode => STATUS[code] ?? 500;

export interface ErrorBody {
  error: { code: string; message: string; details?: Record<string, unknown> };
}

export const errorBody = (code: string, message: string, details?: Record<string, unknown>): ErrorBody => ({
  error: { code, message, ...(details ? { details } : {}) },
});

/** Turn anything thrown by a handler into the JSON error response; unexpected errors are logged. */
export function errorResponse(c: Context, e: unknown, log: (line: string) => void): Response {
  if (e instanceof HttpError) {
    for (const [k, v] of Object.entries(e.headers)) c.header(k, v);
    return c.json(errorBody(e.code, e.message, e.details), e.status);
  }
  if (isTapedeckError(e)) {
    const status = statusOf(e.code);
    if (status === 503) c.header('Retry-After', '1');
    if (status === 401) c.header('WWW-Authenticate', 'Bearer realm="tapedeck"');
    return c.json(errorBody(e.code, e.message, e.details), status);
  }
  const err = e as Error;
  log(`error: ${c.req.method} ${c.req.path}: ${err?.stack ?? String(e)}`);
  return c.json(errorBody('INTERNAL', 'Internal server error; the server log has the details'), 500);
}
