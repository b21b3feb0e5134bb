/** test/http-auth.test.ts again, every temporary home's store on PostgreSQL. */
import { onPostgres } from '../support/on-postgres.js';

await onPostgres('http-auth', 'http-auth.test.js');
