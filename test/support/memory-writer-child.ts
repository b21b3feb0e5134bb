/**
 * Test support: a separate process that adds memories to a store, for concurrency tests.
 * argv: <sqlite|postgres> <file path or URL> <start at ms> <count> <tag>. It waits until `start`
 * (so two children begin together), adds `count` memories whose text depends only on the index
 * (so both children add the same ones), and prints one JSON line: the ids and dedup flags.
 */
import type { Stores } from '../../src/ports/stores.js';
import { createMemoryService } from '../../src/services/memories.js';
import { createSpaceService } from '../../src/services/spaces.js';
import { openPostgresStores } from '../../src/storage/postgres/stores.js';
import { openSqliteStores } from '../../src/storage/sqlite/stores.js';

const [kind, location, start, count] = process.argv.slice(2);
const stores: Stores = kind === 'postgres' ? openPostgresStores(location!) : openSqliteStores(location!);
const memories = createMemoryService({
  store: stores.memories,
  spaces: createSpaceService({}),
  threads: { getThread: () => undefined, getSteps: () => [] },
});
const wait = Number(start) - Date.now();
if (wait > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, wait);
const out: { id: string; deduplicated: boolean }[] = [];
for (let i = 0; i < Number(count); i++) {
  const r = memories.add({
    content: `Concurrent fact number ${i}: the ${['api', 'worker', 'cron'][i % 3]} service listens on port ${8000 + i}`,
    labels: ['race'],
  });
  out.push({ id: r.id, deduplicated: r.deduplicated });
}
stores.close();
process.stdout.write(`${JSON.stringify(out)}\n`);
