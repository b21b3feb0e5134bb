/**
 * Test support: the PostgreSQL test server (TAPEDECK_TEST_DATABASE_URL, started by `.ci/run`) and
 * fresh schemas on it, one per store, dropped at cleanup.
 */
import { randomBytes } from 'node:crypto';
import { connectPgSync } from '../../src/storage/postgres/sync-client.js';

export const PG_URL = process.env.TAPEDECK_TEST_DATABASE_URL?.trim() || undefined;
if (!PG_URL && process.env.TAPEDECK_REQUIRE_POSTGRES === '1')
  throw new Error('TAPEDECK_REQUIRE_POSTGRES=1 but TAPEDECK_TEST_DATABASE_URL is not set');

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
