/**
 * The owner token of the keyless loopback server: a random secret in `<home>/local-token`
 * (0600, created on first need). Another user on the same machine can reach 127.0.0.1 but cannot
 * read the file, so a request that carries the token (`Authorization: Bearer <token>`) comes from
 * the home's owner. The CLI in client mode, the hooks, the MCP bridge and `tapedeck ui` read it
 * here; nothing else knows where it lives.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isLoopbackUrl } from './loopback.js';

/** Where a home keeps its token. */
export const localTokenPath = (home: string): string => join(home, 'local-token');

/** `tdl_` + 32 random bytes in base64url: not an API key (`tapedeck_…`), so the two never mix. */
const TOKEN_PATTERN = /^tdl_[A-Za-z0-9_-]{43}$/;

/** The token when the file exists and holds one; undefined otherwise (never throws). */
export function readLocalToken(home: string): string | undefined {
  try {
    const t = readFileSync(localTokenPath(home), 'utf8').trim();
    return TOKEN_PATTERN.test(t) ? t : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The token, created (0600, in a 0700 home) when missing. Two processes racing to create it agree:
 * each writes a private temporary file and links it into place, which fails when a token is
 * already there, so the file is never seen half-written and the loser reads the winner's.
 */
export function ensureLocalToken(home: string): string {
  const existing = readLocalToken(home);
  if (existing) return existing;
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const path = localTokenPath(home);
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  const token = `tdl_${randomBytes(32).toString('base64url')}`;
  writeFileSync(tmp, `${token}\n`, { mode: 0o600, flag: 'wx' });
  try {
    chmodSync(tmp, 0o600);
    try {
      linkSync(tmp, path);
      return token;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const theirs = readLocalToken(home);
    if (theirs) return theirs;
    // A file that holds no token (empty, damaged by hand): ours replaces it.
    renameSync(tmp, path);
    return token;
  } finally {
    rmSync(tmp, { force: true });
  }
}

/** Whether `presented` is `token`, in time that does not depend on where they differ. */
export function isLocalToken(presented: string, token: string | undefined): boolean {
  if (!token) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Whether a value has the token's shape (so a wrong one is told apart from an API key). */
export const looksLikeLocalToken = (value: string): boolean => TOKEN_PATTERN.test(value);

/**
 * What a client sends as its bearer: the configured API key, else — only for a server on this
 * machine, never over the network — the owner token of `home`. Read on each call, so a client
 * started before the server created the token still gets in.
 */
export function clientBearer(apiUrl: string, apiKey: string | undefined, home: string): string | undefined {
  if (apiKey) return apiKey;
  return isLoopbackUrl(apiUrl) ? readLocalToken(home) : undefined;
}
