/** test/mcp-lean.test.ts again, every temporary home's store on PostgreSQL. */
import { onPostgres } from '../support/on-postgres.js';

await onPostgres('mcp-lean', 'mcp-lean.test.js');
