/** test/fs-mcp.test.ts again, every temporary home's store on PostgreSQL. */
import { onPostgres } from '../support/on-postgres.js';

await onPostgres('fs-mcp', 'fs-mcp.test.js');
