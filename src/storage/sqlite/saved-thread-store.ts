/** SQLite implementation of the SavedThreadStore port (tables from migration 006). */
import type {
  SavedMessageKey,
  SavedRequest,
  SavedThreadInfo,
  SavedThreadStore,
} from '../../ports/saved-thread-store.js';
import type { Db } from './open.js';

interface InfoRow {
  thread_id: string;
  source_app: string | null;
  metadata: string | null;
  created_at: string;
  updated_at: string;
}

interface MessageRow {
  step: number;
  external_id: string | null;
  content_key: string;
}

function parseMetadata(text: string | null): Record<string, unknown> | undefined {
  if (!text) return undefined;
  try {
    const v = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

const toInfo = (r: InfoRow): SavedThreadInfo => ({
  threadId: r.thread_id,
  sourceApp: r.source_app ?? undefined,
  metadata: parseMetadata(r.metadata),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

function prepare(db: Db) {
  return {
    get: db.prepare<[string], InfoRow>('SELECT * FROM saved_threads WHERE thread_id = ?'),
    list: db.prepare<[number, number], InfoRow>(
      'SELECT * FROM saved_threads ORDER BY updated_at DESC, thread_id LIMIT ? OFFSET ?',
    ),
    put: db.prepare(
      `INSERT INTO saved_threads (thread_id, source_app, metadata, created_at, updated_at)
       VALUES (@threadId, @sourceApp, @metadata, @createdAt, @updatedAt)
       ON CONFLICT(thread_id) DO UPDATE SET
         source_app = COALESCE(excluded.source_app, saved_threads.source_app),
         metadata = COALESCE(excluded.metadata, saved_threads.metadata),
         updated_at = excluded.updated_at`,
    ),
    setSpace: db.prepare('UPDATE threads SET space = ? WHERE id = ?'),
    count: db.prepare<[string], { n: number }>(
      'SELECT COUNT(*) AS n FROM saved_messages WHERE thread_id = ?',
    ),
    keys: db.prepare<[string], MessageRow>(
      'SELECT step, external_id, content_key FROM saved_messages WHERE thread_id = ? ORDER BY step',
    ),
    hasExternal: db.prepare<[string, string, number], { one: number }>(
      'SELECT 1 AS one FROM saved_messages WHERE thread_id = ? AND external_id = ? AND step < ? LIMIT 1',
    ),
    hasContent: db.prepare<[string, string, number], { one: number }>(
      'SELECT 1 AS one FROM saved_messages WHERE thread_id = ? AND content_key = ? AND step < ? LIMIT 1',
    ),
    addMessage: db.prepare(
      'INSERT OR REPLACE INTO saved_messages (thread_id, step, external_id, content_key) VALUES (?, ?, ?, ?)',
    ),
    truncate: db.prepare('DELETE FROM saved_messages WHERE thread_id = ? AND step >= ?'),
    getRequest: db.prepare<
      [string],
      { key: string; thread_id: string; op: string; result: string; created_at: string }
    >('SELECT * FROM saved_requests WHERE key = ?'),
    saveRequest: db.prepare(
      'INSERT INTO saved_requests (key, thread_id, op, result, created_at) VALUES (?, ?, ?, ?, ?)',
    ),
    prefix: db.prepare<[string, string], { thread_id: string }>(
      'SELECT thread_id FROM saved_threads WHERE thread_id >= ? AND thread_id < ? ORDER BY thread_id',
    ),
  };
}

export function createSqliteSavedThreadStore(db: Db): SavedThreadStore {
  // Prepared on first use, so opening an engine costs nothing for commands that never save.
  let prepared: ReturnType<typeof prepare> | undefined;
  const st = () => {
    prepared ??= prepare(db);
    return prepared;
  };

  return {
    get(threadId) {
      const r = st().get.get(threadId);
      return r ? toInfo(r) : undefined;
    },
    list(limit, offset) {
      return st().list.all(limit, offset).map(toInfo);
    },
    put(info) {
      st().put.run({
        threadId: info.threadId,
        sourceApp: info.sourceApp ?? null,
        metadata: info.metadata ? JSON.stringify(info.metadata) : null,
        createdAt: info.createdAt,
        updatedAt: info.updatedAt,
      });
    },
    setSpace(threadId, space) {
      st().setSpace.run(space, threadId);
    },
    messageCount(threadId) {
      return st().count.get(threadId)?.n ?? 0;
    },
    messageKeys(threadId): SavedMessageKey[] {
      return st()
        .keys.all(threadId)
        .map((r) => ({
          step: r.step,
          externalId: r.external_id ?? undefined,
          contentKey: r.content_key,
        }));
    },
    hasExternalId(threadId, externalId, beforeStep = Number.MAX_SAFE_INTEGER) {
      return !!st().hasExternal.get(threadId, externalId, beforeStep);
    },
    hasContentKey(threadId, contentKey, beforeStep) {
      return !!st().hasContent.get(threadId, contentKey, beforeStep);
    },
    addMessage(threadId, key) {
      st().addMessage.run(threadId, key.step, key.externalId ?? null, key.contentKey);
    },
    truncateMessages(threadId, from) {
      st().truncate.run(threadId, from);
    },
    getRequest(key): SavedRequest | undefined {
      const r = st().getRequest.get(key);
      if (!r) return undefined;
      return {
        key: r.key,
        threadId: r.thread_id,
        op: r.op,
        result: JSON.parse(r.result),
        createdAt: r.created_at,
      };
    },
    saveRequest(req) {
      st().saveRequest.run(req.key, req.threadId, req.op, JSON.stringify(req.result), req.createdAt);
    },
    idsWithPrefix(prefix) {
      // A range scan on the primary key: every id starting with `prefix` sorts in [prefix, prefix + U+FFFF).
      return st()
        .prefix.all(prefix, `${prefix}\uffff`)
        .map((r) => r.thread_id);
    },
  };
}
