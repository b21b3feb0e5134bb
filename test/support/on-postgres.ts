/**
 * Test support: whole single-backend suites run again with every temporary home's store on
 * PostgreSQL, for the wrappers in test/postgres/. One wrapper file per suite on purpose: each is its
 * own `node --test` process, so a suite's module state, environment and servers never meet
 * another's, the runner still runs them side by side, and one suite is re-run by its path.
 */
import { test } from 'node:test';
import { PG_URL } from './pg.js';

/**
 * Imports `suites` (paths under test/, as `cli.test.js`) with TAPEDECK_TEST_BACKEND=postgres, set
 * before they load because support/home.ts reads it once; without a server, one skipped test.
 */
export async function onPostgres(name: string, ...suites: string[]): Promise<void> {
  if (!PG_URL) {
    test(`${name} on PostgreSQL`, { skip: 'TAPEDECK_TEST_DATABASE_URL is not set' }, () => {});
    return;
  }
  process.env.TAPEDECK_TEST_BACKEND = 'postgres';
  for (const suite of suites) await import(new URL(`../${suite}`, import.meta.url).href);
}
