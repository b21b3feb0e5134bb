/** test/saved-threads-mcp.test.ts again, every temporary home's store on PostgreSQL. */
import { onPostgres } from '../support/on-postgres.js';

await onPostgres('saved-threads-mcp', 'saved-threads-mcp.test.js');
