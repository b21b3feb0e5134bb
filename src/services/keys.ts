/**
 * API keys: create (the key is returned once), list, revoke, and verify a presented key.
 *
 * Storage keeps only SHA-256(key). A slow password hash (scrypt, argon2) protects guessable
 * secrets; these keys are 32 random bytes (256 bits), so a digest cannot be reversed or
 * brute-forced, and a fast hash keeps verification at microseconds on every request. The
 * digest is looked up by an index, then compared with `timingSafeEqual` so the comparison
 * itself leaks nothing about how much of it matched.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  type ApiKeyRecord,
  isKeyScope,
  KEY_PATTERN,
  KEY_PREFIX,
  KEY_SCOPES,
  type KeyScope,
  type KeyStatus,
  keyStatus,
} from '../core/api-keys.js';
import { invalidInput, notFound } from '../core/errors.js';
import { checkSpaceName } from '../core/spaces.js';
import type { KeyStore } from '../ports/key-store.js';

export interface KeyCreateInput {
  name: string;
  /** Spaces the key sees; none for every space. */
  spaces?: string[];
  /** read (default), write or admin. */
  scope?: string;
  /** When it stops working: `30d`, `12h`, a date or ISO time; none for never. */
  expires?: string;
}

export interface KeyView extends ApiKeyRecord {
  status: KeyStatus;
}

/** Why a presented key was refused. */
export type KeyRefusal = 'malformed' | 'unknown' | 'revoked' | 'expired';

export type KeyCheck = { ok: true; key: ApiKeyRecord } | { ok: false; reason: KeyRefusal };

export interface KeyService {
  /** Create a key; `key` is the secret, shown this once and never stored. */
  create(input: KeyCreateInput): Promise<{ key: string; record: KeyView }>;
  list(): Promise<KeyView[]>;
  /** Revoke by id (idempotent); NOT_FOUND for an unknown id. */
  revoke(id: string): Promise<KeyView>;
  /** Check a presented key: known, not revoked, not expired. Records when it was last used. */
  verify(presented: string): Promise<KeyCheck>;
  /** Whether any key could be used now (a server bound to the network needs one). */
  hasActiveKeys(): Promise<boolean>;
}

export interface KeyServiceDeps {
  store: KeyStore;
  now?: () => number;
}

const MAX_NAME = 100;
const CONTROL = /[\u0000-\u001f\u007f]/;
/** `last_used_at` is written at most this often per key (a write per request would cost more than the request). */
const TOUCH_EVERY_MS = 60_000;

export const hashKey = (key: string): Uint8Array => createHash('sha256').update(key, 'utf8').digest();

function cleanName(name: unknown): string {
  if (typeof name !== 'string' || name.trim() === '') throw invalidInput('A key needs a name (--name)');
  const n = name.trim();
  if (n.length > MAX_NAME) throw invalidInput(`The key name is over ${MAX_NAME} characters`);
  if (CONTROL.test(n)) throw invalidInput('The key name contains control characters');
  return n;
}

function cleanScope(scope: unknown): KeyScope {
  if (scope === undefined || scope === null || scope === '') return 'read';
  if (!isKeyScope(scope))
    throw invalidInput(`Unknown scope "${String(scope)}"; use ${KEY_SCOPES.join(', ')}`);
  return scope;
}

function cleanSpaces(spaces: unknown): string[] {
  if (spaces === undefined || spaces === null) return [];
  if (!Array.isArray(spaces)) throw invalidInput('spaces must be a list of space names');
  return [...new Set(spaces.map((s) => checkSpaceName(String(s).trim())))];
}

/** `30d`, `12h`, `45m`, `2w` from now, or a date / ISO time; undefined for never. */
export function parseExpiry(value: string | undefined, now: number): string | null {
  if (value === undefined || value.trim() === '' || value.trim() === 'never') return null;
  const v = value.trim();
  const span = /^(\d+)\s*([mhdw])$/.exec(v);
  let at: number;
  if (span) {
    const unit = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }[span[2] as 'm' | 'h' | 'd' | 'w'];
    at = now + Number(span[1]) * unit;
  } else {
    at = Date.parse(v);
    if (!Number.isFinite(at)) throw invalidInput(`--expires "${v}" is not a span (30d, 12h, 2w) or a date`);
  }
  if (at <= now) throw invalidInput(`--expires "${v}" is in the past`);
  return new Date(at).toISOString();
}

export function createKeyService({ store, now = Date.now }: KeyServiceDeps): KeyService {
  const iso = () => new Date(now()).toISOString();
  const lastTouch = new Map<string, number>();
  const view = (k: ApiKeyRecord): KeyView => ({ ...k, status: keyStatus(k, iso()) });

  async function touch(id: string): Promise<void> {
    const t = now();
    if (t - (lastTouch.get(id) ?? 0) < TOUCH_EVERY_MS) return;
    lastTouch.set(id, t);
    if (lastTouch.size > 10_000) lastTouch.clear();
    try {
      await store.touch(id, new Date(t).toISOString());
    } catch {
      // a busy database must not refuse a valid key; the time is only informative
    }
  }

  return {
    async create(input) {
      const name = cleanName(input.name);
      const scope = cleanScope(input.scope);
      const spaces = cleanSpaces(input.spaces);
      const expires_at = parseExpiry(input.expires, now());
      const key = KEY_PREFIX + randomBytes(32).toString('base64url');
      const record: ApiKeyRecord = {
        id: `key_${randomBytes(6).toString('hex')}`,
        name,
        prefix: key.slice(0, KEY_PREFIX.length + 4),
        scope,
        spaces,
        created_at: iso(),
        expires_at,
        revoked_at: null,
        last_used_at: null,
      };
      await store.insert({ ...record, hash: hashKey(key) });
      return { key, record: view(record) };
    },

    list: async () => (await store.list()).map(view),

    async revoke(id) {
      if (typeof id !== 'string' || !(await store.get(id.trim())))
        throw notFound(`No key "${id}"; list keys with \`tapedeck keys list\``);
      await store.revoke(id.trim(), iso());
      return view((await store.get(id.trim()))!);
    },

    async verify(presented) {
      if (typeof presented !== 'string' || !KEY_PATTERN.test(presented))
        return { ok: false, reason: 'malformed' };
      const digest = hashKey(presented);
      const row = await store.byHash(digest);
      if (!row || row.hash.length !== digest.length || !timingSafeEqual(row.hash, digest))
        return { ok: false, reason: 'unknown' };
      const status = keyStatus(row, iso());
      if (status !== 'active') return { ok: false, reason: status };
      await touch(row.id);
      const { hash: _hash, ...key } = row;
      return { ok: true, key };
    },

    hasActiveKeys: async () => (await store.countActive(iso())) > 0,
  };
}
