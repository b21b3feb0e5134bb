/** test/saved-threads-cli.test.ts again, every temporary home's store on PostgreSQL. */
import { onPostgres } from '../support/on-postgres.js';

await onPostgres('saved-threads-cli', 'saved-threads-cli.test.js');
