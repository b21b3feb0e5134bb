/**
 * Saving one queued session, idempotently, through the first tier that works.
 *
 * - A server on this machine (loopback URL) reads the same transcript files: it is asked to index
 *   the agent (POST /v1/index) and must then have the thread `<agent>:<session id>`.
 * - A remote server gets the messages pushed as a saved thread with the same deterministic id:
 *   PUT /v1/saved-threads/<id> (import, or append when it exists), every message carrying its step
 *   number as external id (the server skips ids it has), an expected message count as checkpoint
 *   and an idempotency key per batch. A re-save, a resumed session or a late retry adds only what
 *   is new. A server whose own index already has the thread answers CONFLICT not_a_saved_thread:
 *   that counts as saved.
 * - The local store indexes the agent's transcripts with the normal incremental indexer, so the
 *   session is the same thread `tapedeck search` finds, never a second copy.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Engine } from '../../app/engine.js';
import { readSessionTranscript } from '../../app/session-capture.js';
import { apiRequest, ServerError, serverError } from './client.js';
import { readJson, writeAtomic } from './files.js';
import type { QueueItem } from './queue.js';
import { type HookSettings, isLoopbackUrl } from './settings.js';
import type { SaveRecord } from './state.js';

const BATCH = 1000;
const INDEX_TIMEOUT_MS = 60_000;
const PUSH_TIMEOUT_MS = 30_000;

export type Saved = Omit<SaveRecord, 'at'>;

const enc = encodeURIComponent;

/** Local store: incremental index of the agent, then the thread must be there. */
export function saveLocally(engine: Engine, item: QueueItem): Saved {
  engine.transcripts.index({ agents: [item.agent] });
  const t = engine.store.getThread(item.thread);
  if (!t) {
    const where = item.transcriptPath
      ? `${item.transcriptPath} ${existsSync(item.transcriptPath) ? 'exists but is not under the transcript folders Tapedeck reads' : 'does not exist (yet)'}`
      : 'no transcript path was given';
    throw new Error(`${item.thread} is not in the local store after indexing ${item.agent} (${where})`);
  }
  return { thread: item.thread, agent: item.agent, target: 'local', how: 'index', messages: t.stepCount };
}

async function indexOnServer(s: HookSettings, item: QueueItem): Promise<Saved | null> {
  const r = await apiRequest(s, 'POST', '/v1/index', {
    body: { agents: [item.agent] },
    timeoutMs: INDEX_TIMEOUT_MS,
  });
  if (r.status !== 200) throw serverError('POST', '/v1/index', r);
  const t = await apiRequest(s, 'GET', `/v1/threads/${enc(item.thread)}?limit=1`, { timeoutMs: 5000 });
  // A thread pushed earlier is there too, under tapedeck://thread/…: that is not the indexed file.
  const source = String(t.body?.thread?.source ?? '');
  if (t.status === 200 && !source.startsWith('tapedeck://'))
    return {
      thread: item.thread,
      agent: item.agent,
      target: 'server',
      how: 'index',
      messages: t.body?.thread?.step_count,
    };
  if (t.status === 200) return null;
  if (t.status === 404) return null;
  throw serverError('GET', '/v1/threads/:id', t);
}

interface PushMemo {
  /** Highest step sent and the server's message count after it. */
  [thread: string]: { step: number; count: number };
}

async function savedCount(s: HookSettings, thread: string): Promise<number | 'indexed'> {
  const r = await apiRequest(s, 'GET', `/v1/saved-threads/${enc(thread)}?limit=1`, { timeoutMs: 5000 });
  if (r.status === 200) return Number(r.body?.thread?.stepCount ?? 0);
  if (r.status === 404) return 0;
  if (r.status === 409 && r.body?.error?.details?.reason === 'not_a_saved_thread') return 'indexed';
  throw serverError('GET', '/v1/saved-threads/:id', r);
}

async function pushToServer(s: HookSettings, item: QueueItem): Promise<Saved> {
  if (!item.transcriptPath) throw new Error(`${item.thread}: no transcript path to read the messages from`);
  if (!existsSync(item.transcriptPath))
    throw new Error(`${item.thread}: transcript ${item.transcriptPath} does not exist (yet)`);
  const { meta, messages } = readSessionTranscript(item.agent, item.transcriptPath);
  const memoPath = join(s.paths.dir, 'pushed.json');
  const memo = readJson<PushMemo>(memoPath, {});
  let count = await savedCount(s, item.thread);
  const done = (n?: number): Saved => ({
    thread: item.thread,
    agent: item.agent,
    target: 'server',
    how: 'push',
    messages: n,
  });
  if (count === 'indexed') return done();
  const known = memo[item.thread];
  // Only what is new since the last push when the server still agrees with the memo; else all of
  // it, and the server's deduplication by external id keeps what it has.
  let todo = known && known.count === count ? messages.filter((m) => m.step > known.step) : messages;
  let retried = false;
  while (todo.length > 0) {
    const batch = todo.slice(0, BATCH);
    const ids = batch.map((m) => m.external_id).join(',');
    const key = `tapedeck-hook:${createHash('sha256').update(`${item.thread}|${count}|${ids}`).digest('hex').slice(0, 32)}`;
    const body = {
      title: meta.title,
      source: item.agent,
      project: item.project ?? meta.project,
      messages: batch.map(({ step: _s, ...m }) => m),
      expected_message_count: count,
      idempotency_key: key,
    };
    const r = await apiRequest(s, 'PUT', `/v1/saved-threads/${enc(item.thread)}`, {
      body,
      timeoutMs: PUSH_TIMEOUT_MS,
    });
    if (r.status === 200 || r.status === 201) {
      count = Number(r.body?.total_messages ?? count);
      memo[item.thread] = { step: batch[batch.length - 1].step, count };
      todo = todo.slice(BATCH);
      continue;
    }
    const reason = r.body?.error?.details?.reason;
    if (r.status === 409 && reason === 'not_a_saved_thread') return done();
    if (r.status === 409 && reason === 'checkpoint_conflict' && !retried) {
      // someone else appended (another machine, a concurrent save): re-read and send everything
      retried = true;
      const now = await savedCount(s, item.thread);
      if (now === 'indexed') return done();
      count = now;
      todo = messages;
      continue;
    }
    throw serverError('PUT', '/v1/saved-threads/:id', r);
  }
  try {
    writeAtomic(memoPath, JSON.stringify(memo));
  } catch {
    // without the memo the next push sends everything and the server deduplicates
  }
  return done(typeof count === 'number' ? count : undefined);
}

/** Save on the configured server: its own indexer when it shares this machine, else a push. */
export async function saveOnServer(s: HookSettings, item: QueueItem): Promise<Saved> {
  const mode = s.capture === 'auto' ? (isLoopbackUrl(s.apiUrl ?? '') ? 'index' : 'push') : s.capture;
  if (mode === 'index') {
    const r = await indexOnServer(s, item);
    if (r) return r;
    if (s.capture === 'index')
      throw new ServerError(`${item.thread}: the server indexed ${item.agent} but has no such thread`);
  }
  return pushToServer(s, item);
}
