/** test/mcp-lean.test.ts again, every temporary home's store on PostgreSQL. */
import { test } from 'node:test';
import { PG_URL } from '../support/pg.js';

if (PG_URL) {
  process.env.TAPEDECK_TEST_BACKEND = 'postgres';
  await import('../mcp-lean.test.js');
} else test('mcp-lean on PostgreSQL', { skip: 'TAPEDECK_TEST_DATABASE_URL is not set' }, () => {});
