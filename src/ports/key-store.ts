import type { ApiKeyRecord } from '../core/api-keys.js';

/** A stored key with the SHA-256 digest of its secret (32 bytes). */
export interface StoredKey extends ApiKeyRecord {
  hash: Uint8Array;
}

/**
 * Storage for API keys: one implementation (storage/key-store.ts) for every backend. Only
 * digests of keys are stored; lookups are by digest.
 */
export interface KeyStore {
  /** Add a key; CONFLICT if the id or digest exists. */
  insert(key: StoredKey): Promise<void>;
  /** The key whose secret has this digest (revoked and expired ones included). */
  byHash(hash: Uint8Array): Promise<StoredKey | undefined>;
  get(id: string): Promise<ApiKeyRecord | undefined>;
  /** Every key, newest first. */
  list(): Promise<ApiKeyRecord[]>;
  /** Mark revoked at `at`; false when no such key. A revoked key stays revoked (first time kept). */
  revoke(id: string, at: string): Promise<boolean>;
  /** Record that the key was used at `at`. */
  touch(id: string, at: string): Promise<void>;
  /** Keys neither revoked nor expired at `nowIso`. */
  countActive(nowIso: string): Promise<number>;
}
