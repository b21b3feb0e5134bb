/**
 * Every store of one backend, opened together over one database. The composition root opens a
 * backend (SQLite file or PostgreSQL server) and the services never learn which one it is.
 */
import type { ContextBundleStore } from './context-bundle-store.js';
import type { KeyStore } from './key-store.js';
import type { KnowledgeCatalog } from './knowledge-catalog.js';
import type { MemoryStore } from './memory-store.js';
import type { RuleStore } from './rule-store.js';
import type { SavedThreadStore } from './saved-thread-store.js';
import type { SkillsStore } from './skills-store.js';
import type { StepVectorStore } from './step-vectors.js';
import type { TranscriptStore } from './transcript-store.js';
import type { WikiStore } from './wiki-store.js';
import type { WorkingMemoryStore } from './working-memory-store.js';

export type BackendKind = 'sqlite' | 'postgres';

/** What a backend can do beyond the contract every backend meets. */
export interface BackendCapabilities {
  /** Trigram matching for identifiers (PostgreSQL pg_trgm). */
  trigram: boolean;
  /** Vector similarity (pgvector); nothing depends on it. */
  vectors: boolean;
}

/** What `tapedeck redact` found (and with `applied`, changed): values masked anew by today's rules. */
export interface RemaskSummary {
  /** Text values that today's rules mask further. */
  values: number;
  /** Rows holding at least one of them. */
  rows: number;
  /** Values per table. */
  tables: Record<string, number>;
  /** Whether they were written (`--apply`), or only counted. */
  applied: boolean;
}

export interface Stores {
  readonly kind: BackendKind;
  /** The file path, or the server URL without its password. */
  readonly location: string;
  readonly capabilities: BackendCapabilities;
  readonly transcripts: TranscriptStore;
  readonly memories: MemoryStore;
  readonly rules: RuleStore;
  readonly skills: SkillsStore;
  readonly wiki: WikiStore;
  readonly saved: SavedThreadStore;
  readonly workingMemory: WorkingMemoryStore;
  readonly contextBundle: ContextBundleStore;
  readonly keys: KeyStore;
  readonly catalog: KnowledgeCatalog;
  /** Meaning vectors of steps (`tapedeck embed`). */
  readonly vectors: StepVectorStore;
  /**
   * Mask every stored text again with today's redaction rules; counts only, unless `apply`.
   * UNSUPPORTED where a backend cannot do it yet.
   */
  remask(apply: boolean): RemaskSummary;
  /** Run `fn` in one transaction spanning every store (a write one takes the write lock first). */
  transaction<T>(fn: () => T, mode: 'read' | 'write'): T;
  /**
   * Run async `fn` in one write transaction spanning every store (those on storage/sql.ts and
   * the synchronous ones alike): all of it committed when `fn` resolves, none of it when it
   * throws. Inside, await only store calls.
   */
  writeAll<T>(fn: () => Promise<T>): Promise<T>;
  close(): void;
}
