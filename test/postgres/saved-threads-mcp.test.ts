/** test/saved-threads-mcp.test.ts again, every temporary home's store on PostgreSQL. */
import { test } from 'node:test';
import { PG_URL } from '../support/pg.js';

if (PG_URL) {
  process.env.TAPEDECK_TEST_BACKEND = 'postgres';
  await import('../saved-threads-mcp.test.js');
} else test('saved-threads-mcp on PostgreSQL', { skip: 'TAPEDECK_TEST_DATABASE_URL is not set' }, () => {});
