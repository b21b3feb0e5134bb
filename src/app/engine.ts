/**
 * The composition root: the only place that picks concrete adapters and storage. Interfaces get
 * an Engine and call its services.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentId } from '../core/types.js';
import { createIndexer, type Indexer } from '../ingest/indexer.js';
import type { TranscriptArchive } from '../ports/archive.js';
import type { LocateEnv, SourceAdapter, TranscriptFile } from '../ports/source.js';
import type { Stores } from '../ports/stores.js';
import type { StoreStats, TranscriptStore } from '../ports/transcript-store.js';
import { createMeaningService, type MeaningService } from '../services/meaning.js';
import { createTranscriptService, type TranscriptService } from '../services/transcripts.js';
import { ADAPTERS } from '../sources/registry.js';
import { createFileArchive } from '../storage/archive/file-archive.js';
import { openSqliteStores } from '../storage/sqlite/stores.js';
import { postgresBackend, remoteBackend } from './backends.js';
import type { TapedeckConfig } from './config.js';
import { createEmbedderPool } from './embedder.js';
import { createKnowledgeServices, type KnowledgeServices } from './knowledge.js';
import { secureHome } from './owner-only.js';
import { redactingStores } from './redacting-stores.js';
import { spawnParseWorker } from './spawn-parse-worker.js';

export interface Engine extends KnowledgeServices {
  config: TapedeckConfig;
  transcripts: TranscriptService;
  /** Closeness in meaning: `tapedeck embed`, and the question's vector for search. */
  meaning: MeaningService;
  store: TranscriptStore;
  /** Every store of the backend (SQLite file or PostgreSQL server). */
  stores: Stores;
  indexer: Indexer;
  /**
   * The local transcript archive (absent when turned off, and in client mode). Deliberately not a
   * service: restoring writes files on this machine, so no HTTP or RPC route reaches it.
   */
  archive?: TranscriptArchive;
  adapters: readonly SourceAdapter[];
  locateEnv: LocateEnv;
  /** Transcript files on this machine per agent (directory listings only). */
  locate(agents?: AgentId[]): Record<string, TranscriptFile[]>;
  stats(): StoreStats;
  close(): void;
}

export interface EngineOptions {
  readonly?: boolean;
  /** Where to look for agents' transcripts instead of the user's home (the bundled samples). */
  locateHome?: string;
}

export function createEngine(
  config: TapedeckConfig,
  { readonly = false, locateHome }: EngineOptions = {},
): Engine {
  // An in-memory store (a read command before anything was indexed) creates no home.
  if (config.dbPath !== ':memory:' || existsSync(config.tapedeckHome)) secureHome(config.tapedeckHome);
  const stores = openStores(config, readonly);
  const store = stores.transcripts;
  const locateEnv: LocateEnv = locateHome
    ? { home: locateHome, env: {} }
    : { home: config.home, env: config.env };
  const archive = config.archive ? createFileArchive(join(config.tapedeckHome, 'archive')) : undefined;
  const indexer = createIndexer({
    store,
    adapters: ADAPTERS,
    env: locateEnv,
    policy: config.policy,
    spawnParseWorker,
    archive,
  });
  // One model: a question runs in this thread, embed's batches on a worker per core.
  const meaning = createMeaningService(stores.vectors, createEmbedderPool());
  const transcripts = createTranscriptService(store, indexer, archive, meaning.of);
  return {
    ...createKnowledgeServices({ stores, config, store, transcripts }),
    config,
    store,
    stores,
    indexer,
    adapters: ADAPTERS,
    locateEnv,
    transcripts,
    meaning,
    archive,
    locate(agents) {
      const out: Record<string, TranscriptFile[]> = {};
      for (const a of ADAPTERS)
        if (!agents?.length || agents.includes(a.id)) out[a.id] = a.locate(locateEnv, () => {});
      return out;
    },
    stats: () => store.stats(),
    close: () => stores.close(),
  };
}

/**
 * The backend the configuration names: a PostgreSQL server, else the SQLite file — behind the
 * redaction boundary, so nothing reaches either backend unredacted.
 */
export function openStores(config: TapedeckConfig, readonly = false): Stores {
  return redactingStores(
    config.databaseUrl
      ? postgresBackend().openPostgresStores(config.databaseUrl)
      : openSqliteStores(config.dbPath, { readonly, busyTimeoutMs: config.busyTimeoutMs }),
  );
}

/**
 * The engine a command works on: the configured Tapedeck server in client mode (`apiUrl`), else
 * the local backend. `local` forces the local backend (the server itself, the quickstart demo).
 */
export function connectEngine(
  config: TapedeckConfig,
  options: EngineOptions & { local?: boolean } = {},
): Engine {
  return config.apiUrl && !options.local
    ? remoteBackend().createRemoteEngine(config)
    : createEngine(config, options);
}
