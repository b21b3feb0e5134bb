/** PostgreSQL implementation of the KeyStore port (schema: migrations/008-api-keys.ts). */
import type { ApiKeyRecord, KeyScope } from '../../core/api-keys.js';
import { TapedeckError } from '../../core/errors.js';
import type { KeyStore, StoredKey } from '../../ports/key-store.js';
import type { PgStore } from './open.js';
import { pgGuard } from './skill-wiki-guard.js';

interface KeyRow {
  id: string;
  name: string;
  hash: Buffer;
  prefix: string;
  scope: KeyScope;
  spaces: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
}

const COLS = 'id, name, prefix, scope, spaces, created_at, expires_at, revoked_at, last_used_at';

const toRecord = (r: Omit<KeyRow, 'hash'>): ApiKeyRecord => ({
  id: r.id,
  name: r.name,
  prefix: r.prefix,
  scope: r.scope,
  spaces: JSON.parse(r.spaces) as string[],
  created_at: r.created_at,
  expires_at: r.expires_at,
  revoked_at: r.revoked_at,
  last_used_at: r.last_used_at,
});

/** The same CONFLICT the SQLite store raises for a duplicate id or digest. */
const conflict = () => new TapedeckError('CONFLICT', 'A key with this id or secret exists already');

export function createPgKeyStore({ pg }: PgStore): KeyStore {
  return {
    insert: (k: StoredKey) =>
      pgGuard(() => {
        pg.run(
          `INSERT INTO api_keys (id, name, hash, prefix, scope, spaces, created_at, expires_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [
            k.id,
            k.name,
            Buffer.from(k.hash),
            k.prefix,
            k.scope,
            JSON.stringify(k.spaces),
            k.created_at,
            k.expires_at,
          ],
        );
      }, conflict),
    byHash: (hash) =>
      pgGuard(() => {
        const r = pg.one<KeyRow>(`SELECT ${COLS}, hash FROM api_keys WHERE hash = $1`, [Buffer.from(hash)]);
        return r ? { ...toRecord(r), hash: new Uint8Array(r.hash) } : undefined;
      }),
    get: (id) =>
      pgGuard(() => {
        const r = pg.one<KeyRow>(`SELECT ${COLS} FROM api_keys WHERE id = $1`, [id]);
        return r ? toRecord(r) : undefined;
      }),
    list: () =>
      pgGuard(() =>
        pg.query<KeyRow>(`SELECT ${COLS} FROM api_keys ORDER BY created_at DESC, id`).map(toRecord),
      ),
    revoke: (id, at) =>
      pgGuard(
        () => pg.run('UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $1) WHERE id = $2', [at, id]) > 0,
      ),
    touch: (id, at) =>
      pgGuard(() => void pg.run('UPDATE api_keys SET last_used_at = $1 WHERE id = $2', [at, id])),
    countActive: (nowIso) =>
      pgGuard(
        () =>
          pg.one<{ n: number }>(
            `SELECT count(*) AS n FROM api_keys
             WHERE revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $1)`,
            [nowIso],
          )?.n ?? 0,
      ),
  };
}
