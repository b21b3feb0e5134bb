/** test/memory-mcp.test.ts again, every temporary home's store on PostgreSQL. */
import { onPostgres } from '../support/on-postgres.js';

await onPostgres('memory-mcp', 'memory-mcp.test.js');
