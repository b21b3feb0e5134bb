/** The SQLite backend: every store over one embedded file, each built on first use. */
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
import { createSqliteMemoryStore } from './memory-store.js';
import { type OpenOptions, openDatabase, sqliteGuard } from './open.js';
import { remaskSqlite } from './remask.js';
import { sqliteSkillsText } from './skills-fts5.js';
import { createSqliteSqlDb, createSqliteSyncSql } from './sql-db.js';
import { createSqliteTranscriptStore } from './transcript-store.js';
import { sqliteWikiText } from './wiki-fts5.js';

export function openSqliteStores(path: string, options: OpenOptions = {}): Stores {
  const db = openDatabase(path, options);
  const guard = sqliteGuard(path);
  const transcripts = createSqliteTranscriptStore(db, path);
  // One SqlDb, so one mutex, for every store moved to storage/sql.ts: its transactions share the one connection.
  const sqlDb = createSqliteSqlDb(db);
  const stores: Stores = lazyStores({
    kind: 'sqlite',
    location: path,
    capabilities: { trigram: false, vectors: false },
    transcripts,
    memories: () => createSqliteMemoryStore(db),
    rules: () => createRuleStore(sqlDb),
    skills: () => createSkillsStore(createSqliteSyncSql(db), sqliteSkillsText),
    wiki: () => createWikiStore(sqlDb, sqliteWikiText),
    saved: () => createSavedThreadStore(createSqliteSyncSql(db)),
    workingMemory: () => createWorkingMemoryStore(sqlDb, { writable: !db.readonly }),
    contextBundle: () => createContextBundleStore(sqlDb),
    keys: () => createKeyStore(sqlDb),
    catalog: () => createKnowledgeCatalog(createSqliteSyncSql(db)),
    vectors: () => createStepVectorStore(createSqliteSyncSql(db)),
    transaction: (fn, mode) =>
      guard(() => (mode === 'write' ? db.transaction(fn).immediate() : db.transaction(fn).deferred())),
    // The sync stores' own transactions inside it nest as savepoints (better-sqlite3 sees one open).
    writeAll: (fn) => sqlDb.transaction(() => fn()),
    remask: (apply) =>
      guard(() =>
        remaskSqlite(db, apply, (ids) =>
          stores.memories.write((w) => {
            for (const id of ids) {
              const m = w.get(id);
              if (m) w.update(m);
            }
          }),
        ),
      ),
    close: () => transcripts.close(),
  });
  return stores;
}
