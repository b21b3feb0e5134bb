/**
 * API keys as the domain sees them: what a key may do (its scope) and which spaces it sees.
 * Pure: generating and hashing keys is the keys service's job.
 */

/** What a key may do: read < write < admin (admin also manages keys). */
export const KEY_SCOPES = ['read', 'write', 'admin'] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

export const isKeyScope = (v: unknown): v is KeyScope => (KEY_SCOPES as readonly unknown[]).includes(v);

/** Whether a caller with scope `have` may do something that needs `need`. */
export const scopeAllows = (have: KeyScope, need: KeyScope): boolean =>
  KEY_SCOPES.indexOf(have) >= KEY_SCOPES.indexOf(need);

/** Every key starts with this, so a leaked one is recognisable (secret scanners, logs). */
export const KEY_PREFIX = 'tapedeck_';

/** `tapedeck_` + 32 random bytes in base64url (43 characters). */
export const KEY_PATTERN = /^tapedeck_[A-Za-z0-9_-]{43}$/;

/** A stored key, without its secret (only a hash of it is stored). */
export interface ApiKeyRecord {
  id: string;
  name: string;
  /** The first characters of the key, to recognise it in a list (never enough to use it). */
  prefix: string;
  scope: KeyScope;
  /** The spaces it sees; empty means every space. */
  spaces: string[];
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
}

export type KeyStatus = 'active' | 'revoked' | 'expired';

export function keyStatus(k: Pick<ApiKeyRecord, 'revoked_at' | 'expires_at'>, nowIso: string): KeyStatus {
  if (k.revoked_at) return 'revoked';
  if (k.expires_at && k.expires_at <= nowIso) return 'expired';
  return 'active';
}
