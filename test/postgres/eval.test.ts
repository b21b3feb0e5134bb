/** test/eval.test.ts again, every temporary home's store on PostgreSQL (the baselines stay on FTS5). */
import { test } from 'node:test';
import { PG_URL } from '../support/pg.js';

if (PG_URL) {
  process.env.TAPEDECK_TEST_BACKEND = 'postgres';
  await import('../eval.test.js');
} else test('eval on PostgreSQL', { skip: 'TAPEDECK_TEST_DATABASE_URL is not set' }, () => {});
