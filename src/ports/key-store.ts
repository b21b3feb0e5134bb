import type { ApiKeyRecord } from '../core/api-keys.js';

/** A stored key with the SHA-256 digest of its secret (32 bytes). */
export interface StoredKey extends ApiKeyRecord {
  hash: Uint8Array;
}

/**
 * Storage for API keys. Only digests of keys are stored; lookups are by digest. One
 * implementation per backend.
 */
export interface KeyStore {
  /** Add a key; CONFLICT if the id or digest exists. */
  insert(key: StoredKey): void;
  /** The key whose secret has this digest (revoked and expired ones included). */
  byHash(hash: Uint8Array): StoredKey | undefined;
  get(id: string): ApiKeyRecord | undefined;
  /** Every key, newest first. */
  list(): ApiKeyRecord[];
  /** Mark revoked at `at`; false when no such key. A revoked key stays revoked (first time kept). */
  revoke(id: string, at: string): boolean;
  /** Record that the key was used at `at`. */
  touch(id: string, at: string): void;
  /** Keys neither revoked nor expired at `nowIso`. */
  countActive(nowIso: string): number;
}
