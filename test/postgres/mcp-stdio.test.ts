/** test/mcp-stdio.test.ts again, every temporary home's store on PostgreSQL. */
import { onPostgres } from '../support/on-postgres.js';

await onPostgres('mcp-stdio', 'mcp-stdio.test.js');
