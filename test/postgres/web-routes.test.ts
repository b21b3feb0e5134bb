/** test/web-routes.test.ts again (timeline, doctor, the page), every temporary home's store on PostgreSQL. */
import { test } from 'node:test';
import { PG_URL } from '../support/pg.js';

if (PG_URL) {
  process.env.TAPEDECK_TEST_BACKEND = 'postgres';
  await import('../web-routes.test.js');
} else test('web-routes on PostgreSQL', { skip: 'TAPEDECK_TEST_DATABASE_URL is not set' }, () => {});
