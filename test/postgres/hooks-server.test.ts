/** test/hooks-server.test.ts again, every temporary home's store on PostgreSQL. */
import { onPostgres } from '../support/on-postgres.js';

await onPostgres('hooks-server', 'hooks-server.test.js');
