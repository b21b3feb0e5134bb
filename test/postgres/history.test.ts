/** test/history.test.ts and test/antigravity-steps.test.ts again, every temporary home's store on PostgreSQL. */
import { test } from 'node:test';
import { PG_URL } from '../support/pg.js';

if (PG_URL) {
  process.env.TAPEDECK_TEST_BACKEND = 'postgres';
  await import('../history.test.js');
  await import('../antigravity-steps.test.js');
} else test('history on PostgreSQL', { skip: 'TAPEDECK_TEST_DATABASE_URL is not set' }, () => {});
