/**
 * The KnowledgeCatalog port once for both backends: read-only GROUP BYs and id lists over the
 * tables of migrations 001–007 (each domain's store owns and writes its tables). Text is ordered
 * bytewise on both (`COLLATE "C"` on PostgreSQL, SQLite's default), so folders list alike whatever
 * the server's locale. The port is still synchronous (the fs tree reads it): it runs on the
 * dialect's synchronous queries (storage/sql.ts SyncSql).
 */
import type { Bucket, KnowledgeCatalog, WorkingMemoryEdit } from '../ports/knowledge-catalog.js';
import { REQUEST_COLS, type RequestRow, toRequest } from './saved-thread-store.js';
import { type Sql, type SyncSql, sql } from './sql.js';

/** The date a memory is filed under: when it happened if known, else when it was recorded. */
const MEMORY_DAY = sql.raw('substr(COALESCE(event_start, created_at), 1, 10)');
const THREAD_DAY = sql.raw('substr(COALESCE(started_at, updated_at), 1, 10)');

interface EditRow {
  space: string;
  day: string;
  section: string;
  edit: string;
  edited_at: string | null;
}

export function createKnowledgeCatalog(db: SyncSql): KnowledgeCatalog {
  const bytewise = sql.raw(db.dialect === 'postgres' ? ' COLLATE "C"' : '');
  const likePrefix = (within: string) => `${within.replace(/[\\%_]/g, '')}%`;
  const ids = (q: Sql) => db.all<{ id: string }>(q).map((r) => r.id);
  const buckets = (q: Sql) => db.all<Bucket>(q).map((b) => ({ key: b.key, n: Number(b.n) }));

  return {
    spaces: () =>
      db
        .all<{ space: string | null }>(
          sql`SELECT space FROM (
            SELECT space FROM memories UNION SELECT space FROM skills UNION SELECT space FROM wiki_pages
            UNION SELECT t.space FROM threads t JOIN saved_threads s ON s.thread_id = t.id
            UNION SELECT scope_value FROM rules WHERE scope_kind = 'space'
            UNION SELECT space FROM working_memory_sections WHERE edit IS NOT NULL
          ) x ORDER BY space${bytewise}`,
        )
        .map((r) => r.space)
        .filter((s): s is string => !!s),
    memoryLabels: (space) =>
      buckets(sql`SELECT l.label AS key, COUNT(*) AS n FROM memory_labels l JOIN memories m ON m.mid = l.mid
        WHERE m.space = ${space} AND m.status = 'active' GROUP BY l.label ORDER BY l.label${bytewise}`),
    memoryTypes: (space) =>
      buckets(sql`SELECT unit_type AS key, COUNT(*) AS n FROM memories WHERE space = ${space} AND status = 'active'
        GROUP BY unit_type ORDER BY unit_type${bytewise}`),
    memoryDates: (space, within, granularity) =>
      buckets(sql`SELECT substr(${MEMORY_DAY}, 1, ${granularity}) AS key, COUNT(*) AS n FROM memories
        WHERE space = ${space} AND status = 'active' AND ${MEMORY_DAY} LIKE ${likePrefix(within)}
        GROUP BY 1 ORDER BY 1`),
    memoriesOn: (space, day, limit, offset) =>
      ids(sql`SELECT id FROM memories WHERE space = ${space} AND status = 'active' AND ${MEMORY_DAY} = ${day}
        ORDER BY updated_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`),
    threadAgents: () =>
      buckets(sql`SELECT agent AS key, COUNT(*) AS n FROM threads GROUP BY agent ORDER BY agent${bytewise}`),
    threadsOf: (agent, limit, offset) =>
      ids(sql`SELECT id FROM threads WHERE agent = ${agent} ORDER BY updated_at DESC NULLS LAST, id DESC
        LIMIT ${limit} OFFSET ${offset}`),
    threadDates: (within, granularity) =>
      buckets(sql`SELECT substr(${THREAD_DAY}, 1, ${granularity}) AS key, COUNT(*) AS n FROM threads
        WHERE ${THREAD_DAY} LIKE ${likePrefix(within)} GROUP BY 1 ORDER BY 1`),
    threadsOn: (day, limit, offset) =>
      ids(sql`SELECT id FROM threads WHERE ${THREAD_DAY} = ${day} ORDER BY updated_at DESC NULLS LAST, id DESC
        LIMIT ${limit} OFFSET ${offset}`),
    wikiPaths: (space) =>
      db
        .all<{ path: string; removed: boolean | number }>(
          sql`SELECT path, deleted_at IS NOT NULL AS removed FROM wiki_pages WHERE space = ${space}
            ORDER BY path${bytewise}`,
        )
        .map((r) => ({ path: r.path, removed: r.removed === true || r.removed === 1 })),
    savedRequests: (threadId) =>
      db
        .all<RequestRow>(
          sql`SELECT ${REQUEST_COLS} FROM saved_requests WHERE thread_id = ${threadId} ORDER BY created_at, key`,
        )
        .map(toRequest),
    savedThreadIds: (spaces) =>
      spaces === null
        ? ids(sql`SELECT thread_id AS id FROM saved_threads ORDER BY thread_id${bytewise}`)
        : spaces.length === 0
          ? []
          : ids(sql`SELECT s.thread_id AS id FROM saved_threads s JOIN threads t ON t.id = s.thread_id
              WHERE t.space IN (${sql.join(
                spaces.map((x) => sql`${x}`),
                ', ',
              )}) ORDER BY s.thread_id${bytewise}`),
    workingMemoryDays: (space) =>
      db
        .all<{ day: string }>(
          sql`SELECT day FROM working_memory WHERE space = ${space}
            UNION SELECT day FROM working_memory_sections WHERE space = ${space} ORDER BY day DESC`,
        )
        .map((r) => r.day),
    workingMemoryEdits: (space) =>
      db
        .all<EditRow>(
          sql`SELECT space, day, section, edit, edited_at FROM working_memory_sections
            WHERE space = ${space} AND edit IS NOT NULL ORDER BY day, section`,
        )
        .map(
          (r): WorkingMemoryEdit => ({
            space: r.space,
            day: r.day,
            section: r.section,
            edit: r.edit,
            editedAt: r.edited_at ?? '',
          }),
        ),
  };
}
