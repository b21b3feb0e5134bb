/**
 * Test support: the backends a contract test runs on. SQLite always; PostgreSQL when
 * HIPPO_TEST_DATABASE_URL names a server (`.ci/run` starts one and sets it, with
 * HIPPO_REQUIRE_POSTGRES=1 so a missing server fails instead of skipping). Each PostgreSQL store
 * gets a fresh schema, dropped at cleanup.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BackendKind, Stores } from '../../src/ports/stores.js';
import { openPostgresStores } from '../../src/storage/postgres/stores.js';
import { connectPgSync } from '../../src/storage/postgres/sync-client.js';
import { openSqliteStores } from '../../src/storage/sqlite/stores.js';
import { type TempHome, tempHome } from './home.js';

export const PG_URL = process.env.HIPPO_TEST_DATABASE_URL?.trim() || undefined;
if (!PG_URL && process.env.HIPPO_REQUIRE_POSTGRES === '1')
  throw new Error('HIPPO_REQUIRE_POSTGRES=1 but HIPPO_TEST_DATABASE_URL is not set');

export interface BackendCase {
  name: BackendKind;
  /** Why the case is skipped here (node:test `skip`), or false. */
  skip: string | false;
}

export const BACKENDS: readonly BackendCase[] = [
  { name: 'sqlite', skip: false },
  {
    name: 'postgres',
    skip: PG_URL ? false : 'HIPPO_TEST_DATABASE_URL is not set (CI sets it; see CONTRIBUTING.md)',
  },
];

export const POSTGRES: BackendCase = BACKENDS[1]!;

/** A new, empty schema on the test server: its URL and a function that drops it. */
export function freshSchema(): { url: string; schema: string; drop(): void } {
  if (!PG_URL) throw new Error('no PostgreSQL test server');
  const schema = `t_${process.pid}_${randomBytes(5).toString('hex')}`;
  const u = new URL(PG_URL);
  u.searchParams.set('schema', schema);
  return {
    url: u.toString(),
    schema,
    drop() {
      const pg = connectPgSync(PG_URL);
      try {
        pg.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        pg.close();
      }
    },
  };
}

/** Fresh, empty stores on a backend. */
export function openTestStores(backend: BackendKind): { stores: Stores; url?: string; cleanup(): void } {
  if (backend === 'postgres') {
    const s = freshSchema();
    const stores = openPostgresStores(s.url);
    return {
      stores,
      url: s.url,
      cleanup() {
        stores.close();
        s.drop();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'hippo-stores-'));
  const stores = openSqliteStores(join(dir, 'hippo.db'));
  return {
    stores,
    cleanup() {
      stores.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A temporary home (see home.ts) whose engine and CLI use `backend` (HIPPO_DATABASE_URL for PostgreSQL). */
export function backendHome(backend: BackendKind, extraEnv: Record<string, string> = {}): TempHome {
  if (backend === 'sqlite') return tempHome(extraEnv);
  const s = freshSchema();
  const h = tempHome({ HIPPO_DATABASE_URL: s.url, ...extraEnv });
  return {
    ...h,
    cleanup() {
      h.cleanup();
      s.drop();
    },
  };
}
