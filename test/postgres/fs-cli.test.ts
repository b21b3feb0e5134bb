/** test/fs-cli.test.ts again, every temporary home's store on PostgreSQL. */
import { onPostgres } from '../support/on-postgres.js';

await onPostgres('fs-cli', 'fs-cli.test.js');
