/** The PostgreSQL backend: every store over one server connection, each built on first use. */

import { TapedeckError } from '../../core/errors.js';
import type { Stores } from '../../ports/stores.js';
import { createContextBundleStore } from '../context-bundle-store.js';
import { createKeyStore } from '../key-store.js';
import { createKnowledgeCatalog } from '../knowledge-catalog.js';
import { lazyStores } from '../lazy-stores.js';
import { createRuleStore } from '../rule-store.js';
import { createSavedThreadStore } from '../saved-thread-store.js';
import { createSkillsStore } from '../skills-store.js';
import { createStepVectorStore } from '../step-vector-store.js';
import { createWikiStore } from '../wiki-store.js';
import { createWorkingMemoryStore } from '../working-memory-store.js';
import { createPgMemoryStore } from './memory-store.js';
import { openPg, parseDatabaseUrl } from './open.js';
import { pgSkillsText } from './skills-tsvector.js';
import { createPgSqlDb, createPgSyncSql, syncQueries } from './sql-pool.js';
import type { PgSyncOptions } from './sync-client.js';
import { createPgTranscriptStore } from './transcript-store.js';
import { pgWikiText } from './wiki-tsvector.js';

export function openPostgresStores(url: string, options: PgSyncOptions = {}): Stores {
  const db = openPg(url, options);
  const transcripts = createPgTranscriptStore(db);
  // The stores moved to storage/sql.ts (rules, keys, the context bundle, working memory, wiki so far) share one pool; the rest still use db.pg.
  const pool = createPgSqlDb(parseDatabaseUrl(url).url, { ...options, schema: db.schema });
  return lazyStores({
    kind: 'postgres',
    location: db.schema === 'public' ? db.pg.label : `${db.pg.label}?schema=${db.schema}`,
    capabilities: db.capabilities,
    transcripts,
    memories: () => createPgMemoryStore(db),
    rules: () => createRuleStore(pool),
    skills: () => createSkillsStore(createPgSyncSql(db.pg), pgSkillsText),
    wiki: () => createWikiStore(pool, pgWikiText),
    saved: () => createSavedThreadStore(createPgSyncSql(db.pg)),
    workingMemory: () => createWorkingMemoryStore(pool),
    contextBundle: () => createContextBundleStore(pool),
    keys: () => createKeyStore(pool),
    catalog: () => createKnowledgeCatalog(createPgSyncSql(db.pg)),
    vectors: () => createStepVectorStore(createPgSyncSql(db.pg)),
    transaction: (fn, mode) => db.pg.transaction(fn, mode),
    // Until every store is on the pool, the spanning transaction is the synchronous client's, and
    // the pool's stores join it (storage/sql.ts `within`): one connection, one commit.
    writeAll: (fn) => db.pg.transactionAsync(() => pool.within(syncQueries(db.pg), fn), 'write'),
    remask: () => {
      throw new TapedeckError(
        'UNSUPPORTED',
        'tapedeck redact works on the SQLite store for now; on PostgreSQL, export, then import into a fresh schema (import masks with today’s rules)',
      );
    },
    close: () => {
      db.pg.close();
      void pool.close();
    },
  });
}
