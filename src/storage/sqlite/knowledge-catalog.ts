/**
 * SQLite implementation of the KnowledgeCatalog port: read-only GROUP BYs and id lists over the
 * tables of migrations 001–007. Nothing here writes; each domain's store owns its tables.
 */

import type { Bucket, KnowledgeCatalog, WorkingMemoryEdit } from '../../ports/knowledge-catalog.js';
import type { SavedRequest } from '../../ports/saved-thread-store.js';
import { lazyStatements } from './lazy-statements.js';
import { type Db, sqliteGuard } from './open.js';

/** The date a memory is filed under: when it happened if known, else when it was recorded. */
const MEMORY_DAY = 'substr(COALESCE(event_start, created_at), 1, 10)';
const THREAD_DAY = 'substr(COALESCE(started_at, updated_at), 1, 10)';

export function createSqliteKnowledgeCatalog(db: Db): KnowledgeCatalog {
  const path = db.name;
  const st = lazyStatements(db, {
    spaces: `SELECT space FROM memories UNION SELECT space FROM skills UNION SELECT space FROM wiki_pages
      UNION SELECT t.space FROM threads t JOIN saved_threads s ON s.thread_id = t.id
      UNION SELECT scope_value FROM rules WHERE scope_kind = 'space'
      UNION SELECT space FROM working_memory_sections WHERE edit IS NOT NULL ORDER BY 1`,
    labels: `SELECT l.label AS key, COUNT(*) AS n FROM memory_labels l JOIN memories m ON m.mid = l.mid
      WHERE m.space = ? AND m.status = 'active' GROUP BY l.label ORDER BY l.label`,
    types: `SELECT unit_type AS key, COUNT(*) AS n FROM memories WHERE space = ? AND status = 'active'
      GROUP BY unit_type ORDER BY unit_type`,
    memoryDates: `SELECT substr(${MEMORY_DAY}, 1, ?) AS key, COUNT(*) AS n FROM memories
      WHERE space = ? AND status = 'active' AND ${MEMORY_DAY} LIKE ? GROUP BY key ORDER BY key`,
    memoriesOn: `SELECT id FROM memories WHERE space = ? AND status = 'active' AND ${MEMORY_DAY} = ?
      ORDER BY updated_at DESC, id DESC LIMIT ? OFFSET ?`,
    agents: 'SELECT agent AS key, COUNT(*) AS n FROM threads GROUP BY agent ORDER BY agent',
    threadsOf: `SELECT id FROM threads WHERE agent = ? ORDER BY updated_at DESC NULLS LAST, id DESC
      LIMIT ? OFFSET ?`,
    threadDates: `SELECT substr(${THREAD_DAY}, 1, ?) AS key, COUNT(*) AS n FROM threads
      WHERE ${THREAD_DAY} LIKE ? GROUP BY key ORDER BY key`,
    threadsOn: `SELECT id FROM threads WHERE ${THREAD_DAY} = ? ORDER BY updated_at DESC NULLS LAST, id DESC
      LIMIT ? OFFSET ?`,
    wikiPaths: 'SELECT path, deleted_at IS NOT NULL AS removed FROM wiki_pages WHERE space = ? ORDER BY path',
    requests: 'SELECT * FROM saved_requests WHERE thread_id = ? ORDER BY created_at, key',
    savedAll: 'SELECT thread_id AS id FROM saved_threads ORDER BY thread_id',
    savedIn: `SELECT s.thread_id AS id, t.space AS space FROM saved_threads s JOIN threads t ON t.id = s.thread_id
      ORDER BY s.thread_id`,
    wmDays: `SELECT day FROM working_memory WHERE space = ?
      UNION SELECT day FROM working_memory_sections WHERE space = ? ORDER BY day DESC`,
    wmEdits: `SELECT space, day, section, edit, edited_at FROM working_memory_sections
      WHERE space = ? AND edit IS NOT NULL ORDER BY day, section`,
  });

  const guard = sqliteGuard(path);
  const likePrefix = (within: string) => `${within.replace(/[\\%_]/g, '')}%`;

  return {
    spaces: () => guard(() => (st.spaces.all() as { space: string }[]).map((r) => r.space).filter(Boolean)),
    memoryLabels: (space) => guard(() => st.labels.all(space) as Bucket[]),
    memoryTypes: (space) => guard(() => st.types.all(space) as Bucket[]),
    memoryDates: (space, within, granularity) =>
      guard(() => st.memoryDates.all(granularity, space, likePrefix(within)) as Bucket[]),
    memoriesOn: (space, day, limit, offset) =>
      guard(() => (st.memoriesOn.all(space, day, limit, offset) as { id: string }[]).map((r) => r.id)),
    threadAgents: () => guard(() => st.agents.all() as Bucket[]),
    threadsOf: (agent, limit, offset) =>
      guard(() => (st.threadsOf.all(agent, limit, offset) as { id: string }[]).map((r) => r.id)),
    threadDates: (within, granularity) =>
      guard(() => st.threadDates.all(granularity, likePrefix(within)) as Bucket[]),
    threadsOn: (day, limit, offset) =>
      guard(() => (st.threadsOn.all(day, limit, offset) as { id: string }[]).map((r) => r.id)),
    wikiPaths: (space) =>
      guard(() =>
        (st.wikiPaths.all(space) as { path: string; removed: number }[]).map((r) => ({
          path: r.path,
          removed: r.removed === 1,
        })),
      ),
    savedRequests: (threadId) =>
      guard(() =>
        (
          st.requests.all(threadId) as {
            key: string;
            thread_id: string;
            op: string;
            result: string;
            created_at: string;
          }[]
        ).map(
          (r): SavedRequest => ({
            key: r.key,
            threadId: r.thread_id,
            op: r.op,
            result: JSON.parse(r.result),
            createdAt: r.created_at,
          }),
        ),
      ),
    savedThreadIds: (spaces) =>
      guard(() =>
        spaces === null
          ? (st.savedAll.all() as { id: string }[]).map((r) => r.id)
          : (st.savedIn.all() as { id: string; space: string }[])
              .filter((r) => spaces.includes(r.space))
              .map((r) => r.id),
      ),
    workingMemoryDays: (space) =>
      guard(() => (st.wmDays.all(space, space) as { day: string }[]).map((r) => r.day)),
    workingMemoryEdits: (space) =>
      guard(() =>
        (
          st.wmEdits.all(space) as {
            space: string;
            day: string;
            section: string;
            edit: string;
            edited_at: string | null;
          }[]
        ).map(
          (r): WorkingMemoryEdit => ({
            space: r.space,
            day: r.day,
            section: r.section,
            edit: r.edit,
            editedAt: r.edited_at ?? '',
          }),
        ),
      ),
  };
}
