/**
 * Reading a request body: at most `limit` bytes (413 past it, checked on the declared length
 * first and again while reading), JSON only (415 for another media type: a browser cannot send
 * application/json to another origin without a CORS preflight, which this server never
 * grants), and 400 for malformed JSON.
 */
import type { Context } from 'hono';
import { HttpError } from './errors.js';

export const MiB = 1024 * 1024;

/** The 413 for a body over `limit` bytes; it closes the connection (the body is left unread). */
export const tooLarge = (limit: number) =>
  new HttpError(
    413,
    'PAYLOAD_TOO_LARGE',
    `The request body is over ${limit.toLocaleString('en-US')} bytes`,
    // The rest of the body is never read, so the connection cannot carry another request: a client
    // that reused it would see its next request fail.
    { connection: 'close' },
    { limit },
  );

/** The body parsed as JSON; `undefined` when there is none. */
export async function readJson(c: Context, limit: number): Promise<unknown> {
  const declared = c.req.header('content-length');
  if (declared !== undefined && Number(declared) > limit) throw tooLarge(limit);
  const raw = c.req.raw.body;
  if (!raw || declared === '0') return undefined;
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(type))
    throw new HttpError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      'Send the body as JSON with Content-Type: application/json',
    );
  const reader = raw.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  if (size === 0) return undefined;
  const text = Buffer.concat(chunks, size).toString('utf8');
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new HttpError(400, 'INVALID_INPUT', `The body is not valid JSON: ${(e as Error).message}`);
  }
}
