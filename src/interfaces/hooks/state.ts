/**
 * What `tapedeck status` reports from: the last successful save per agent and per session (written by
 * the queue worker, which holds the queue lock, so there is one writer) and the last error (any
 * hook or the worker; last one wins).
 */
import type { AgentId } from '../../core/types.js';
import { errorText, readJson, writeAtomic } from './files.js';
import type { HookPaths } from './settings.js';

export interface SaveRecord {
  thread: string;
  agent: AgentId;
  at: string;
  /** Where it went: the configured server, or the local store. */
  target: 'server' | 'local';
  /** How: the store's indexer read the transcript, or the messages were pushed. */
  how: 'index' | 'push';
  messages?: number;
}

export interface HookState {
  lastSave: Partial<Record<AgentId, SaveRecord>>;
  sessions: Record<string, SaveRecord>;
}

export interface LastError {
  at: string;
  where: string;
  message: string;
  agent?: string;
  thread?: string;
}

const MAX_SESSIONS = 500;

export const readState = (paths: HookPaths): HookState => {
  const s = readJson<Partial<HookState>>(paths.state, {});
  return { lastSave: s.lastSave ?? {}, sessions: s.sessions ?? {} };
};

export function recordSave(paths: HookPaths, rec: SaveRecord): void {
  const s = readState(paths);
  s.lastSave[rec.agent] = rec;
  delete s.sessions[rec.thread];
  s.sessions[rec.thread] = rec;
  const keys = Object.keys(s.sessions);
  for (const k of keys.slice(0, Math.max(0, keys.length - MAX_SESSIONS))) delete s.sessions[k];
  writeAtomic(paths.state, JSON.stringify(s, null, 1));
}

export function recordError(
  paths: HookPaths,
  e: Omit<LastError, 'at' | 'message'> & { error: unknown },
): void {
  const { error, ...rest } = e;
  try {
    writeAtomic(
      paths.lastError,
      JSON.stringify({ at: new Date().toISOString(), message: errorText(error), ...rest }),
    );
  } catch {
    // the log line has it
  }
}

export const readLastError = (paths: HookPaths) => readJson<LastError | null>(paths.lastError, null);
