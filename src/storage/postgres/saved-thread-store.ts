/**
 * PostgreSQL implementation of the SavedThreadStore port (tables from migration 006). Each method
 * is one statement, so one round trip. Changes run inside `TranscriptStore.write(fn)`: the same
 * connection, the same transaction, and the store-wide write lock it holds — so the service's
 * checks (expected count, idempotency key, duplicates) read a state no other writer can change
 * before the commit, exactly as under SQLite's single writer.
 */
import type {
  SavedMessageKey,
  SavedRequest,
  SavedThreadInfo,
  SavedThreadStore,
} from '../../ports/saved-thread-store.js';
import type { PgStore } from './open.js';

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

interface RequestRow {
  key: string;
  thread_id: string;
  op: string;
  result: string;
  created_at: string;
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

const INFO = 'thread_id, source_app, metadata, created_at, updated_at';

export function createPgSavedThreadStore(db: PgStore): SavedThreadStore {
  const { pg } = db;
  return {
    get(threadId) {
      const r = pg.one<InfoRow>(`SELECT ${INFO} FROM saved_threads WHERE thread_id = $1`, [threadId]);
      return r ? toInfo(r) : undefined;
    },
    list(limit, offset) {
      return pg
        .query<InfoRow>(
          `SELECT ${INFO} FROM saved_threads ORDER BY updated_at DESC, thread_id LIMIT $1 OFFSET $2`,
          [limit, offset],
        )
        .map(toInfo);
    },
    put(info) {
      pg.run(
        `INSERT INTO saved_threads (thread_id, source_app, metadata, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (thread_id) DO UPDATE SET
           source_app = COALESCE(excluded.source_app, saved_threads.source_app),
           metadata = COALESCE(excluded.metadata, saved_threads.metadata),
           updated_at = excluded.updated_at`,
        [
          info.threadId,
          info.sourceApp ?? null,
          info.metadata ? JSON.stringify(info.metadata) : null,
          info.createdAt,
          info.updatedAt,
        ],
      );
    },
    setSpace(threadId, space) {
      pg.run('UPDATE threads SET space = $1 WHERE id = $2', [space, threadId]);
    },
    messageCount(threadId) {
      return (
        pg.one<{ n: number }>('SELECT COUNT(*) AS n FROM saved_messages WHERE thread_id = $1', [threadId])
          ?.n ?? 0
      );
    },
    messageKeys(threadId): SavedMessageKey[] {
      return pg
        .query<MessageRow>(
          'SELECT step, external_id, content_key FROM saved_messages WHERE thread_id = $1 ORDER BY step',
          [threadId],
        )
        .map((r) => ({
          step: r.step,
          externalId: r.external_id ?? undefined,
          contentKey: r.content_key,
        }));
    },
    hasExternalId(threadId, externalId, beforeStep = Number.MAX_SAFE_INTEGER) {
      // bigint: the default bound is beyond the INTEGER column's range.
      return !!pg.one(
        'SELECT 1 AS one FROM saved_messages WHERE thread_id = $1 AND external_id = $2 AND step < $3::bigint LIMIT 1',
        [threadId, externalId, beforeStep],
      );
    },
    hasContentKey(threadId, contentKey, beforeStep) {
      return !!pg.one(
        'SELECT 1 AS one FROM saved_messages WHERE thread_id = $1 AND content_key = $2 AND step < $3::bigint LIMIT 1',
        [threadId, contentKey, beforeStep],
      );
    },
    addMessage(threadId, key) {
      // SQLite's INSERT OR REPLACE: a step's key is replaced when the step is rewritten.
      pg.run(
        `INSERT INTO saved_messages (thread_id, step, external_id, content_key) VALUES ($1, $2, $3, $4)
         ON CONFLICT (thread_id, step) DO UPDATE SET external_id = excluded.external_id, content_key = excluded.content_key`,
        [threadId, key.step, key.externalId ?? null, key.contentKey],
      );
    },
    truncateMessages(threadId, from) {
      pg.run('DELETE FROM saved_messages WHERE thread_id = $1 AND step >= $2::bigint', [threadId, from]);
    },
    getRequest(key): SavedRequest | undefined {
      const r = pg.one<RequestRow>(
        'SELECT key, thread_id, op, result, created_at FROM saved_requests WHERE key = $1',
        [key],
      );
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
      pg.run(
        'INSERT INTO saved_requests (key, thread_id, op, result, created_at) VALUES ($1, $2, $3, $4, $5)',
        [req.key, req.threadId, req.op, JSON.stringify(req.result), req.createdAt],
      );
    },
    idsWithPrefix(prefix) {
      // The same bytewise range as SQLite (the column sorts in "C"): [prefix, prefix + U+FFFF).
      return pg
        .query<{ thread_id: string }>(
          'SELECT thread_id FROM saved_threads WHERE thread_id >= $1 AND thread_id < $2 ORDER BY thread_id',
          [prefix, `${prefix}\uffff`],
        )
        .map((r) => r.thread_id);
    },
  };
}
