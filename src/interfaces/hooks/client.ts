/**
 * A minimal JSON client for the Tapedeck server (node:http/https, loaded only when a server is
 * configured): bearer key (or the owner token for a server on this machine), hard timeout, and the body parsed when it is JSON. A network error or a
 * timeout throws; any HTTP status is returned for the caller to judge.
 */
import type { HookSettings } from './settings.js';

export interface ApiResponse {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: a server reply, read field by field by the caller
  body: any;
}

export class ServerError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly code?: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export async function apiRequest(
  settings: Pick<HookSettings, 'apiUrl' | 'apiKey' | 'tapedeckHome'>,
  method: string,
  path: string,
  { body, timeoutMs = 1500 }: { body?: unknown; timeoutMs?: number } = {},
): Promise<ApiResponse> {
  if (!settings.apiUrl) throw new ServerError('no server configured');
  const url = new URL(settings.apiUrl + path);
  const mod = url.protocol === 'https:' ? await import('node:https') : await import('node:http');
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  const headers: Record<string, string | number> = { accept: 'application/json' };
  // Loaded here, not up front: the hook entry stays free of app/ modules (hooks-lean.test.ts).
  const { clientBearer } = await import('../../app/local-token.js');
  const bearer = clientBearer(settings.apiUrl, settings.apiKey, settings.tapedeckHome);
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  if (payload) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = payload.length;
  }
  return new Promise((resolve, reject) => {
    const req = mod.request(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        clearTimeout(timer);
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = text ? JSON.parse(text) : null;
        } catch {
          // not JSON: the caller sees the text
        }
        resolve({ status: res.statusCode ?? 0, body: parsed });
      });
      res.on('error', (e) => reject(new ServerError(`${method} ${url.pathname}: ${e.message}`)));
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new ServerError(`${method} ${settings.apiUrl}${url.pathname}: no answer in ${timeoutMs} ms`));
    }, timeoutMs);
    req.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(new ServerError(`${method} ${settings.apiUrl}${url.pathname}: ${e.code ?? e.message}`));
    });
    req.end(payload);
  });
}

/** The server's error for a non-2xx answer (its `{error: {code, message, details}}` body). */
export function serverError(method: string, path: string, r: ApiResponse): ServerError {
  const e = r.body?.error;
  const msg = typeof e?.message === 'string' ? e.message : `HTTP ${r.status}`;
  return new ServerError(`${method} ${path}: ${r.status} ${msg}`, r.status, e?.code, e?.details);
}
