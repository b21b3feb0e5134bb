/** test/http-isolation.test.ts again, every temporary home's store on PostgreSQL. */
import { onPostgres } from '../support/on-postgres.js';

await onPostgres('http-isolation', 'http-isolation.test.js');
