/**
 * The SavedThreadStore port once for both backends (tables from migration 006). Each method is one
 * statement. Changes run inside `TranscriptStore.write(fn)`: the synchronous queries share its
 * connection (storage/sql.ts SyncSql), so they are in its transaction and under its write lock —
 * the service's checks (expected count, idempotency key, duplicates) read a state no other writer
 * can change before the commit, on PostgreSQL as under SQLite's single writer.
 */
import type {
  SavedMessageKey,
  SavedRequest,
  SavedThreadInfo,
  SavedThreadStore,
} from '../ports/saved-thread-store.js';
import { type SyncSql, sql } from './sql.js';

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

/** A `saved_requests` row (the catalog reads them too, for export). */
export interface RequestRow {
  key: string;
  thread_id: string;
  op: string;
  result: string;
  created_at: string;
}

export const REQUEST_COLS = sql.raw('key, thread_id, op, result, created_at');

export const toRequest = (r: RequestRow): SavedRequest => ({
  key: r.key,
  threadId: r.thread_id,
  op: r.op,
  result: JSON.parse(r.result),
  createdAt: r.created_at,
});

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

const INFO = sql.raw('thread_id, source_app, metadata, created_at, updated_at');

export function createSavedThreadStore(db: SyncSql): SavedThreadStore {
  // A step bound: the default (no bound) is beyond PostgreSQL's INTEGER column, so it is compared
  // as a bigint there; SQLite's integers are 64-bit already.
  const step = (n: number) => (db.dialect === 'postgres' ? sql`${n}::bigint` : sql`${n}`);
  return {
    get(threadId) {
      const r = db.one<InfoRow>(sql`SELECT ${INFO} FROM saved_threads WHERE thread_id = ${threadId}`);
      return r ? toInfo(r) : undefined;
    },
    list(limit, offset) {
      return db
        .all<InfoRow>(
          sql`SELECT ${INFO} FROM saved_threads ORDER BY updated_at DESC, thread_id LIMIT ${limit} OFFSET ${offset}`,
        )
        .map(toInfo);
    },
    put(info) {
      db.run(
        sql`INSERT INTO saved_threads (thread_id, source_app, metadata, created_at, updated_at)
          VALUES (${info.threadId}, ${info.sourceApp ?? null}, ${info.metadata ? JSON.stringify(info.metadata) : null},
            ${info.createdAt}, ${info.updatedAt})
          ON CONFLICT (thread_id) DO UPDATE SET
            source_app = COALESCE(excluded.source_app, saved_threads.source_app),
            metadata = COALESCE(excluded.metadata, saved_threads.metadata),
            updated_at = excluded.updated_at`,
      );
    },
    setSpace(threadId, space) {
      db.run(sql`UPDATE threads SET space = ${space} WHERE id = ${threadId}`);
    },
    messageCount(threadId) {
      const r = db.one<{ n: number | string }>(
        sql`SELECT COUNT(*) AS n FROM saved_messages WHERE thread_id = ${threadId}`,
      );
      return Number(r?.n ?? 0);
    },
    messageKeys(threadId): SavedMessageKey[] {
      return db
        .all<MessageRow>(
          sql`SELECT step, external_id, content_key FROM saved_messages WHERE thread_id = ${threadId} ORDER BY step`,
        )
        .map((r) => ({
          step: r.step,
          externalId: r.external_id ?? undefined,
          contentKey: r.content_key,
        }));
    },
    hasExternalId(threadId, externalId, beforeStep = Number.MAX_SAFE_INTEGER) {
      return !!db.one(
        sql`SELECT 1 AS one FROM saved_messages
          WHERE thread_id = ${threadId} AND external_id = ${externalId} AND step < ${step(beforeStep)} LIMIT 1`,
      );
    },
    hasContentKey(threadId, contentKey, beforeStep) {
      return !!db.one(
        sql`SELECT 1 AS one FROM saved_messages
          WHERE thread_id = ${threadId} AND content_key = ${contentKey} AND step < ${step(beforeStep)} LIMIT 1`,
      );
    },
    addMessage(threadId, key) {
      // A step's key is replaced when the step is rewritten.
      db.run(
        sql`INSERT INTO saved_messages (thread_id, step, external_id, content_key)
          VALUES (${threadId}, ${key.step}, ${key.externalId ?? null}, ${key.contentKey})
          ON CONFLICT (thread_id, step) DO UPDATE SET external_id = excluded.external_id, content_key = excluded.content_key`,
      );
    },
    truncateMessages(threadId, from) {
      db.run(sql`DELETE FROM saved_messages WHERE thread_id = ${threadId} AND step >= ${step(from)}`);
    },
    getRequest(key): SavedRequest | undefined {
      const r = db.one<RequestRow>(sql`SELECT ${REQUEST_COLS} FROM saved_requests WHERE key = ${key}`);
      return r ? toRequest(r) : undefined;
    },
    saveRequest(req) {
      db.run(
        sql`INSERT INTO saved_requests (key, thread_id, op, result, created_at)
          VALUES (${req.key}, ${req.threadId}, ${req.op}, ${JSON.stringify(req.result)}, ${req.createdAt})`,
      );
    },
    idsWithPrefix(prefix) {
      // A range scan on the primary key, bytewise on both (the column sorts in "C" on PostgreSQL):
      // every id starting with `prefix` sorts in [prefix, prefix + U+FFFF).
      return db
        .all<{ thread_id: string }>(
          sql`SELECT thread_id FROM saved_threads WHERE thread_id >= ${prefix} AND thread_id < ${`${prefix}\uffff`}
            ORDER BY thread_id`,
        )
        .map((r) => r.thread_id);
    },
  };
}
