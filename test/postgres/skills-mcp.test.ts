/** test/skills-mcp.test.ts again, every temporary home's store on PostgreSQL. */
import { onPostgres } from '../support/on-postgres.js';

await onPostgres('skills-mcp', 'skills-mcp.test.js');
