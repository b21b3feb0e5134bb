/**
 * Rules on PostgreSQL: the async store on a pg.Pool against the synchronous worker-thread client
 * (what every store used before issue #13), same server, same query, same run. Prints reads per
 * second for `rules.list()` one caller at a time and 16 at once. Usage:
 *   TAPEDECK_TEST_DATABASE_URL=postgres://… node --import tsx bench/rules-concurrency.ts [reads]
 */
import { createRuleService } from '../src/services/rules.js';
import { createSpaceService } from '../src/services/spaces.js';
import { openPg, parseDatabaseUrl } from '../src/storage/postgres/open.js';
import { createPgSqlDb } from '../src/storage/postgres/sql-pool.js';
import { createRuleStore } from '../src/storage/rule-store.js';

const url = process.env.TAPEDECK_TEST_DATABASE_URL;
if (!url) throw new Error('set TAPEDECK_TEST_DATABASE_URL');
const reads = Number(process.argv[2] ?? 2000);
const schema = `bench_rules_${process.pid}`;
const full = `${url}${url.includes('?') ? '&' : '?'}schema=${schema}`;
const db = openPg(full);
const pool = createPgSqlDb(parseDatabaseUrl(full).url, { schema });
try {
  const rules = createRuleService({ store: createRuleStore(pool), spaces: createSpaceService({}) });
  for (let i = 0; i < 40; i++)
    await rules.add({ body: `Rule ${i}: keep it short`, scope: i % 2 ? 'global' : 'agent:codex' });
  const SQL =
    'SELECT id, title, body, scope_kind, scope_value, enabled, priority, note, created_at, updated_at FROM rules ORDER BY created_at, id';

  const t = performance.now();
  for (let i = 0; i < reads; i++) db.pg.query(SQL);
  const syncRate = reads / ((performance.now() - t) / 1000);

  const raw = { strings: [SQL], values: [] };
  const concurrent = async (callers: number, fn: () => Promise<unknown>) => {
    const start = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: callers }, async () => {
        while (next++ < reads) await fn();
      }),
    );
    return Math.round(reads / ((performance.now() - start) / 1000));
  };
  console.log(
    JSON.stringify({
      reads,
      sync_worker_query_per_s: Math.round(syncRate),
      pool_query_1_caller_per_s: await concurrent(1, () => pool.all(raw)),
      pool_query_16_callers_per_s: await concurrent(16, () => pool.all(raw)),
      service_list_16_callers_per_s: await concurrent(16, () => rules.list({ allSpaces: true })),
    }),
  );
} finally {
  db.pg.exec(`DROP SCHEMA ${schema} CASCADE`);
  db.pg.close();
  await pool.close();
}
