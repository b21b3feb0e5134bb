/** Test support: a memory service over a real SQLite file, with a clock the test moves. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TranscriptStore } from '../../src/ports/transcript-store.js';
import { createMemoryService, type MemoryService } from '../../src/services/memories.js';
import { createRuleService, type RuleService } from '../../src/services/rules.js';
import { createSpaceService, type SpaceSettings } from '../../src/services/spaces.js';
import { createRuleStore } from '../../src/storage/rule-store.js';
import { createSqliteMemoryStore } from '../../src/storage/sqlite/memory-store.js';
import { type Db, openDatabase } from '../../src/storage/sqlite/open.js';
import { createSqliteSqlDb } from '../../src/storage/sqlite/sql-db.js';

export interface MemoryLab {
  memories: MemoryService;
  rules: RuleService;
  db: Db;
  /** The service clock (ms); tests move it forward. */
  clock: { now: number };
  cleanup(): void;
}

const NO_THREADS: Pick<TranscriptStore, 'getThread' | 'getSteps'> = {
  getThread: () => undefined,
  getSteps: () => [],
};

export function memoryLab(
  settings: SpaceSettings = {},
  threads: Pick<TranscriptStore, 'getThread' | 'getSteps'> = NO_THREADS,
): MemoryLab {
  const dir = mkdtempSync(join(tmpdir(), 'tapedeck-mem-'));
  const db = openDatabase(join(dir, 'tapedeck.db'));
  const clock = { now: Date.parse('2026-06-01T12:00:00.000Z') };
  const now = () => clock.now;
  const spaces = createSpaceService(settings);
  return {
    memories: createMemoryService({ store: createSqliteMemoryStore(db), spaces, threads, now }),
    rules: createRuleService({ store: createRuleStore(createSqliteSqlDb(db)), spaces, now }),
    db,
    clock,
    cleanup() {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const DAY = 86_400_000;
