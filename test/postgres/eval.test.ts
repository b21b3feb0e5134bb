/** test/eval.test.ts again, every temporary home's store on PostgreSQL (the baselines stay on FTS5). */
import { onPostgres } from '../support/on-postgres.js';

await onPostgres('eval', 'eval.test.js');
