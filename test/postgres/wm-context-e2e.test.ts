/** test/wm-context-e2e.test.ts again, every temporary home's store on PostgreSQL. */
import { onPostgres } from '../support/on-postgres.js';

await onPostgres('wm-context-e2e', 'wm-context-e2e.test.js');
