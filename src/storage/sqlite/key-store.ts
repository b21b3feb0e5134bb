/** SQLite implementation of the KeyStore port (schema: migrations/008-api-keys.ts). */
import type { ApiKeyRecord, KeyScope } from '../../core/api-keys.js';
import { TapedeckError } from '../../core/errors.js';
import type { KeyStore, StoredKey } from '../../ports/key-store.js';
import { lazyStatements } from './lazy-statements.js';
import { type Db, mapSqliteError } from './open.js';

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

export function createSqliteKeyStore(db: Db): KeyStore {
  const path = db.name;
  const st = lazyStatements(db, {
    insert: `INSERT INTO api_keys (id, name, hash, prefix, scope, spaces, created_at, expires_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    byHash: `SELECT ${COLS}, hash FROM api_keys WHERE hash = ?`,
    get: `SELECT ${COLS} FROM api_keys WHERE id = ?`,
    list: `SELECT ${COLS} FROM api_keys ORDER BY created_at DESC, id`,
    revoke: 'UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?',
    touch: 'UPDATE api_keys SET last_used_at = ? WHERE id = ?',
    countActive:
      'SELECT COUNT(*) AS n FROM api_keys WHERE revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)',
  });
  function guard<T>(fn: () => T): T {
    try {
      return fn();
    } catch (e) {
      if (
        (e as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE' ||
        (e as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
      )
        throw new TapedeckError('CONFLICT', 'A key with this id or secret exists already');
      throw mapSqliteError(e, path);
    }
  }
  return {
    insert: (k: StoredKey) =>
      guard(() => {
        st.insert.run(
          k.id,
          k.name,
          Buffer.from(k.hash),
          k.prefix,
          k.scope,
          JSON.stringify(k.spaces),
          k.created_at,
          k.expires_at,
        );
      }),
    byHash: (hash) =>
      guard(() => {
        const r = st.byHash.get(Buffer.from(hash)) as KeyRow | undefined;
        return r ? { ...toRecord(r), hash: new Uint8Array(r.hash) } : undefined;
      }),
    get: (id) =>
      guard(() => {
        const r = st.get.get(id) as KeyRow | undefined;
        return r ? toRecord(r) : undefined;
      }),
    list: () => guard(() => (st.list.all() as KeyRow[]).map(toRecord)),
    revoke: (id, at) => guard(() => st.revoke.run(at, id).changes > 0),
    touch: (id, at) => guard(() => void st.touch.run(at, id)),
    countActive: (nowIso) => guard(() => (st.countActive.get(nowIso) as { n: number }).n),
  };
}
