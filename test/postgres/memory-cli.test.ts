/** test/memory-cli.test.ts again, every temporary home's store on PostgreSQL. */
import { onPostgres } from '../support/on-postgres.js';

await onPostgres('memory-cli', 'memory-cli.test.js');
