/**
 * Who is calling. A key comes as `Authorization: Bearer <key>`, `X-Tapedeck-Api-Key: <key>` or, for
 * Nowledge Mem clients (routes/compat.ts), `X-NMEM-API-Key: <key>` (an empty one counts as absent).
 * Without a key, a request is served only when the server allows keyless use (it binds loopback)
 * and it comes from loopback, names a loopback Host (a DNS-rebinding page names its own), carries
 * no foreign Origin (a web page's cross-site request does) and carries the owner token
 * (`Authorization: Bearer <token>`, app/local-token.ts): loopback alone proves nothing, since
 * every user of the machine reaches it, but only the home's owner can read the token file. That
 * caller gets LOCAL_HTTP_ACCESS (everything but server files). Anything else needs a valid key;
 * failures (bad keys and bad tokens) are throttled per client (throttle.ts) and a later success
 * does not clear them (a holder of one key must not be able to reset its budget for guessing
 * others). Keys, tokens and Authorization headers are never logged.
 *
 * PUBLIC_PATHS (the web page's static files, liveness, the OpenAPI document) need neither.
 */
import { isIP } from 'node:net';
import type { Context, MiddlewareHandler } from 'hono';
import type { Engine } from '../../app/engine.js';
import { isLocalToken, looksLikeLocalToken, readLocalToken } from '../../app/local-token.js';
import { hostName, isLoopbackAddress, isLoopbackHost, plainAddress } from '../../app/loopback.js';
import { type Access, LOCAL_HTTP_ACCESS, scopeEngine } from '../../app/scoped-engine.js';
import { KEY_PREFIX } from '../../core/api-keys.js';
import { TapedeckError } from '../../core/errors.js';
import type { KeyRefusal } from '../../services/keys.js';
import type { HttpEnv } from './env.js';
import { HttpError } from './errors.js';
import type { Throttle } from './throttle.js';

export interface AuthOptions {
  engine: Engine;
  /** Every request needs a key (the server binds a non-loopback address). */
  requireKeys: boolean;
  throttle: Throttle;
  /** The client's address (the socket's remote address on a real server). */
  clientAddress: (c: Context<HttpEnv>) => string | undefined;
  /** The owner token keyless requests must carry (app/local-token.ts); unused when keys are required. */
  localToken?: string;
}

/**
 * Paths served to anyone, before auth: the web page's static files (they hold no data; the page
 * asks for the token itself), liveness and the API description. A trailing `*` matches a prefix.
 * Every data route needs the token or a key.
 */
export const PUBLIC_PATHS: readonly string[] = [
  '/',
  '/index.html',
  '/assets/*',
  '/favicon*',
  '/livez',
  '/openapi.json',
];

/** Whether `path` is served without the token or a key. */
export function isPublicPath(path: string): boolean {
  return PUBLIC_PATHS.some((p) => (p.endsWith('*') ? path.startsWith(p.slice(0, -1)) : path === p));
}

const REFUSAL: Record<KeyRefusal, string> = {
  malformed: 'The API key is not a Tapedeck key (tapedeck_…)',
  unknown: 'The API key is not valid',
  revoked: 'The API key was revoked',
  expired: 'The API key has expired',
};

/** The key a request presents, if any ('' when a header is there but holds no key). */
export function presentedKey(c: Context): string | undefined {
  const header = c.req.header('x-tapedeck-api-key');
  if (header !== undefined) return header.trim();
  const nmem = c.req.header('x-nmem-api-key')?.trim();
  if (nmem) return nmem;
  const auth = c.req.header('authorization');
  if (auth === undefined) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
  return m ? m[1] : '';
}

/** IPv6 clients are throttled per /64 (one host usually owns a whole /64); IPv4 per address. */
export function clientKey(address: string): string {
  const a = plainAddress(address);
  if (isIP(a) !== 6) return a;
  const [head, tail = ''] = a.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = a.includes('::')
    ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

function sameMachineOrigin(origin: string | undefined): boolean {
  if (origin === undefined) return true;
  try {
    return isLoopbackHost(new URL(origin).hostname.replace(/^\[|\]$/g, ''));
  } catch {
    return false;
  }
}

const unauthorized = (message: string) => new TapedeckError('UNAUTHORIZED', message);

/** Sets `access` and the engine as that caller sees it, or answers 401 / 403 / 429. */
export function authMiddleware({
  engine,
  requireKeys,
  throttle,
  clientAddress,
  localToken,
}: AuthOptions): MiddlewareHandler<HttpEnv> {
  let token = localToken;
  /** The token again from its file (it may have been replaced since the server started). */
  const tokenMatches = (presented: string): boolean => {
    if (isLocalToken(presented, token)) return true;
    const now = readLocalToken(engine.config.tapedeckHome);
    if (now && now !== token) token = now;
    return isLocalToken(presented, token);
  };
  const throttled = (client: string) => {
    const wait = throttle.wait(client);
    if (wait > 0)
      throw new HttpError(
        429,
        'RATE_LIMITED',
        'Too many failed API keys or tokens from this client; wait before trying again',
        { 'Retry-After': String(Math.ceil(wait / 1000)) },
      );
  };
  const cache = new Map<string, Engine>();
  const engineFor = (access: Access): Engine => {
    const id = `${access.principal}|${access.scope}|${access.spaces?.join(',') ?? '*'}`;
    const cached = cache.get(id);
    if (cached) return cached;
    if (cache.size >= 256) cache.clear();
    const scoped = scopeEngine(engine, access);
    cache.set(id, scoped);
    return scoped;
  };

  return async (c, next) => {
    if (isPublicPath(c.req.path)) return next();
    const address = clientAddress(c) ?? '';
    const key = presentedKey(c);
    let access: Access;
    const keyless = key === undefined || (!requireKeys && key !== '' && !key.startsWith(KEY_PREFIX));
    if (keyless) {
      if (requireKeys)
        throw unauthorized(
          'An API key is required: send Authorization: Bearer <key> or X-Tapedeck-Api-Key: <key>',
        );
      if (!isLoopbackAddress(address))
        throw unauthorized(
          'Requests from other machines need an API key (this server serves keyless requests from loopback only)',
        );
      if (!isLoopbackHost(hostName(c.req.header('host'))) || !sameMachineOrigin(c.req.header('origin')))
        throw new TapedeckError(
          'FORBIDDEN',
          'A keyless request must come from this machine (a loopback Host and no foreign Origin); send an API key otherwise',
        );
      if (key === undefined)
        throw unauthorized(
          'This server answers only its owner: send Authorization: Bearer <token> with the token from the local-token file in the Tapedeck home (the CLI, hooks and MCP bridge do so on their own), or an API key',
        );
      // The right token is let through even during a lockout: it cannot be guessed (256 random
      // bits), and another local user sending bad keys must not lock the owner out.
      if (!tokenMatches(key)) {
        const client = clientKey(address);
        throttled(client);
        throttle.fail(client);
        throw unauthorized(
          looksLikeLocalToken(key)
            ? 'The owner token is not this server’s (read it again from the local-token file in the Tapedeck home)'
            : 'The bearer token is neither the owner token nor a Tapedeck key (tapedeck_…)',
        );
      }
      access = LOCAL_HTTP_ACCESS;
    } else {
      const client = clientKey(address);
      throttled(client);
      const check = await engine.keys.verify(key);
      if (!check.ok) {
        throttle.fail(client);
        throw unauthorized(
          key === '' ? 'The Authorization header must be "Bearer <key>"' : REFUSAL[check.reason],
        );
      }
      const k = check.key;
      access = {
        principal: `key:${k.id}`,
        scope: k.scope,
        spaces: k.spaces.length ? k.spaces : null,
        serverFiles: false,
      };
    }
    c.set('access', access);
    c.set('engine', engineFor(access));
    await next();
  };
}
