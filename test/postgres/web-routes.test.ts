/** test/web-routes.test.ts again (timeline, doctor, the page), every temporary home's store on PostgreSQL. */
import { onPostgres } from '../support/on-postgres.js';

await onPostgres('web-routes', 'web-routes.test.js');
