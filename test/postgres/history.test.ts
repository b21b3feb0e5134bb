/** test/history.test.ts and test/antigravity-steps.test.ts again, every temporary home's store on PostgreSQL. */
import { onPostgres } from '../support/on-postgres.js';

await onPostgres('history', 'history.test.js', 'antigravity-steps.test.js');
