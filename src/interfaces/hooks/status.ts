/**
 * `tapedeck status`: is capture working? The configured server and whether it answers now, the
 * circuit breaker, the queue (waiting, failed, corrupted), the worker, the last error, the last
 * successful save per agent, and whether a given session is saved.
 */
import { AGENT_IDS } from '../../core/types.js';
import { readBreaker } from './breaker.js';
import { apiRequest } from './client.js';
import { lockOwner } from './lock.js';
import { countFiles, scanQueue } from './queue.js';
import { WORKER_STALE_MS } from './save.js';
import type { HookSettings } from './settings.js';
import { type LastError, readLastError, readState, type SaveRecord } from './state.js';

export interface SessionStatus {
  thread: string;
  saved: boolean;
  last_save: SaveRecord | null;
  queued: boolean;
  queued_error: string | null;
}

export interface HookStatus {
  tapedeck_home: string;
  server: {
    url: string;
    answering: boolean;
    error: string | null;
    circuit: { failures: number; open_until: string | null; last_error: string | null };
  } | null;
  queue: {
    waiting: number;
    retrying: number;
    failed: number;
    corrupted: number;
    items: {
      thread: string;
      queued_at: string;
      attempts: number;
      last_error: string | null;
      next_try: string | null;
    }[];
  };
  worker: { running: boolean; pid: number | null };
  last_error: LastError | null;
  last_save: Partial<Record<string, SaveRecord>>;
  session: SessionStatus | null;
  ok: boolean;
}

/** Session ids the agents put in the environment of the commands they run. */
const SESSION_ENV: [string, string | null][] = [
  ['TAPEDECK_SESSION_ID', null],
  ['ANTIGRAVITY_CONVERSATION_ID', 'antigravity'],
  ['CLAUDE_SESSION_ID', 'claude-code'],
  ['CODEX_SESSION_ID', 'codex'],
  ['GEMINI_SESSION_ID', 'gemini-cli'],
];

/** `agent:session`, or a bare session id matched against the known agents. */
function resolveSession(s: HookSettings, session?: string, agent?: string): string[] {
  let id = session;
  let who = agent;
  if (!id)
    for (const [name, a] of SESSION_ENV) {
      if (s.env[name]) {
        id = s.env[name];
        who ??= a ?? undefined;
        break;
      }
    }
  if (!id) return [];
  if (AGENT_IDS.some((a) => id!.startsWith(`${a}:`))) return [id];
  return (who ? [who] : [...AGENT_IDS]).map((a) => `${a}:${id}`);
}

export async function hookStatus(
  s: HookSettings,
  opts: { session?: string; agent?: string } = {},
): Promise<HookStatus> {
  let server: HookStatus['server'] = null;
  if (s.apiUrl) {
    let answering = false;
    let error: string | null = null;
    try {
      const r = await apiRequest(s, 'GET', '/livez', { timeoutMs: 1500 });
      answering = r.status === 200;
      if (!answering) error = `HTTP ${r.status}`;
    } catch (e) {
      error = (e as Error).message;
    }
    const b = readBreaker(s.paths.breaker, s.apiUrl);
    server = {
      url: s.apiUrl,
      answering,
      error,
      circuit: {
        failures: b.failures,
        open_until: b.openUntil > Date.now() ? new Date(b.openUntil).toISOString() : null,
        last_error: b.lastError ?? null,
      },
    };
  }
  const entries = scanQueue(s.paths).entries;
  const state = readState(s.paths);
  const owner = lockOwner(s.paths.lock, WORKER_STALE_MS);
  const candidates = resolveSession(s, opts.session, opts.agent);
  let session: SessionStatus | null = null;
  if (candidates.length > 0) {
    const thread =
      candidates.find((t) => state.sessions[t] || entries.some((e) => e.item.thread === t)) ?? candidates[0];
    const q = entries.find((e) => e.item.thread === thread);
    session = {
      thread,
      saved: !!state.sessions[thread],
      last_save: state.sessions[thread] ?? null,
      queued: !!q,
      queued_error: q?.item.lastError ?? null,
    };
  }
  const failed = countFiles(s.paths.failed);
  const corrupted = countFiles(s.paths.bad);
  const retrying = entries.filter((e) => e.item.attempts > 0).length;
  const lastError = readLastError(s.paths);
  const newestSave = Object.values(state.lastSave).reduce((m, r) => (r && r.at > m ? r.at : m), '');
  // An error since the last good save, in the last day, still needs a look.
  const freshError =
    !!lastError && lastError.at > newestSave && Date.now() - Date.parse(lastError.at) < 86_400_000;
  return {
    tapedeck_home: s.tapedeckHome,
    server,
    queue: {
      waiting: entries.length,
      retrying,
      failed,
      corrupted,
      items: entries.slice(0, 20).map((e) => ({
        thread: e.item.thread,
        queued_at: e.item.queuedAt,
        attempts: e.item.attempts,
        last_error: e.item.lastError ?? null,
        next_try: e.item.notBefore ? new Date(e.item.notBefore).toISOString() : null,
      })),
    },
    worker: { running: !!owner, pid: owner?.pid ?? null },
    last_error: lastError,
    last_save: state.lastSave,
    session,
    ok: (!server || server.answering) && retrying === 0 && failed === 0 && corrupted === 0 && !freshError,
  };
}
