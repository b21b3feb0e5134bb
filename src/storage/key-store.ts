/**
 * The API key store, once for every backend (schema: migrations/008-api-keys.ts on each), written
 * against storage/sql.ts. The digest is a BLOB on SQLite and a BYTEA on PostgreSQL; both drivers
 * take and return a Buffer, so nothing here depends on the dialect.
 */
import type { ApiKeyRecord, KeyScope } from '../core/api-keys.js';
import { TapedeckError } from '../core/errors.js';
import type { KeyStore, StoredKey } from '../ports/key-store.js';
import { type SqlDb, sql } from './sql.js';

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

const COLS = sql.raw('id, name, prefix, scope, spaces, created_at, expires_at, revoked_at, last_used_at');

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

/** The key store over either backend's database. */
export function createKeyStore(db: SqlDb): KeyStore {
  return {
    async insert(k: StoredKey) {
      try {
        await db.run(sql`
          INSERT INTO api_keys (id, name, hash, prefix, scope, spaces, created_at, expires_at)
          VALUES (${k.id}, ${k.name}, ${Buffer.from(k.hash)}, ${k.prefix}, ${k.scope},
                  ${JSON.stringify(k.spaces)}, ${k.created_at}, ${k.expires_at})`);
      } catch (e) {
        // Both adapters map a unique violation to CONFLICT; say which one it is in a key's words.
        if (e instanceof TapedeckError && e.code === 'CONFLICT')
          throw new TapedeckError('CONFLICT', 'A key with this id or secret exists already');
        throw e;
      }
    },
    async byHash(hash) {
      const r = await db.one<KeyRow>(
        sql`SELECT ${COLS}, hash FROM api_keys WHERE hash = ${Buffer.from(hash)}`,
      );
      return r ? { ...toRecord(r), hash: new Uint8Array(r.hash) } : undefined;
    },
    async get(id) {
      const r = await db.one<KeyRow>(sql`SELECT ${COLS} FROM api_keys WHERE id = ${id}`);
      return r ? toRecord(r) : undefined;
    },
    list: async () =>
      (await db.all<KeyRow>(sql`SELECT ${COLS} FROM api_keys ORDER BY created_at DESC, id`)).map(toRecord),
    revoke: async (id, at) =>
      (await db.run(sql`UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ${at}) WHERE id = ${id}`)) > 0,
    async touch(id, at) {
      await db.run(sql`UPDATE api_keys SET last_used_at = ${at} WHERE id = ${id}`);
    },
    async countActive(nowIso) {
      const r = await db.one<{ n: number | string }>(sql`
        SELECT COUNT(*) AS n FROM api_keys
        WHERE revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ${nowIso})`);
      // PostgreSQL's COUNT is a bigint, which pg hands over as a string.
      return Number(r?.n ?? 0);
    },
  };
}
