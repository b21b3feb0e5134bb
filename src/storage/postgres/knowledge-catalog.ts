/**
 * PostgreSQL implementation of the KnowledgeCatalog port: the read-only GROUP BYs and id lists of
 * the SQLite catalog, statement for statement (one round trip each), over the same tables and
 * columns (migrations 001–007). Text is ordered `COLLATE "C"` so folders list in the bytewise
 * order SQLite gives, whatever the server's locale. Nothing here writes.
 */
import type { Bucket, KnowledgeCatalog, WorkingMemoryEdit } from '../../ports/knowledge-catalog.js';
import type { SavedRequest } from '../../ports/saved-thread-store.js';
import type { PgStore } from './open.js';

/** The date a memory is filed under: when it happened if known, else when it was recorded. */
const MEMORY_DAY = 'substr(COALESCE(event_start, created_at), 1, 10)';
const THREAD_DAY = 'substr(COALESCE(started_at, updated_at), 1, 10)';

const SQL = {
  spaces: `SELECT space FROM (
      SELECT space FROM memories UNION SELECT space FROM skills UNION SELECT space FROM wiki_pages
      UNION SELECT t.space FROM threads t JOIN saved_threads s ON s.thread_id = t.id
      UNION SELECT scope_value FROM rules WHERE scope_kind = 'space'
      UNION SELECT space FROM working_memory_sections WHERE edit IS NOT NULL
    ) x(space) ORDER BY space COLLATE "C"`,
  labels: `SELECT l.label AS key, COUNT(*) AS n FROM memory_labels l JOIN memories m ON m.mid = l.mid
    WHERE m.space = $1 AND m.status = 'active' GROUP BY l.label ORDER BY l.label COLLATE "C"`,
  types: `SELECT unit_type AS key, COUNT(*) AS n FROM memories WHERE space = $1 AND status = 'active'
    GROUP BY unit_type ORDER BY unit_type COLLATE "C"`,
  memoryDates: `SELECT substr(${MEMORY_DAY}, 1, $1) AS key, COUNT(*) AS n FROM memories
    WHERE space = $2 AND status = 'active' AND ${MEMORY_DAY} LIKE $3 GROUP BY 1 ORDER BY 1`,
  memoriesOn: `SELECT id FROM memories WHERE space = $1 AND status = 'active' AND ${MEMORY_DAY} = $2
    ORDER BY updated_at DESC, id DESC LIMIT $3 OFFSET $4`,
  agents: 'SELECT agent AS key, COUNT(*) AS n FROM threads GROUP BY agent ORDER BY agent COLLATE "C"',
  threadsOf: `SELECT id FROM threads WHERE agent = $1 ORDER BY updated_at DESC NULLS LAST, id DESC
    LIMIT $2 OFFSET $3`,
  threadDates: `SELECT substr(${THREAD_DAY}, 1, $1) AS key, COUNT(*) AS n FROM threads
    WHERE ${THREAD_DAY} LIKE $2 GROUP BY 1 ORDER BY 1`,
  threadsOn: `SELECT id FROM threads WHERE ${THREAD_DAY} = $1 ORDER BY updated_at DESC NULLS LAST, id DESC
    LIMIT $2 OFFSET $3`,
  wikiPaths: `SELECT path, deleted_at IS NOT NULL AS removed FROM wiki_pages WHERE space = $1
    ORDER BY path COLLATE "C"`,
  requests: `SELECT key, thread_id, op, result, created_at FROM saved_requests WHERE thread_id = $1
    ORDER BY created_at, key`,
  savedAll: 'SELECT thread_id AS id FROM saved_threads ORDER BY thread_id',
  savedIn: `SELECT s.thread_id AS id FROM saved_threads s JOIN threads t ON t.id = s.thread_id
    WHERE t.space = ANY($1::text[]) ORDER BY s.thread_id`,
  wmDays: `SELECT day FROM working_memory WHERE space = $1
    UNION SELECT day FROM working_memory_sections WHERE space = $1 ORDER BY day DESC`,
  wmEdits: `SELECT space, day, section, edit, edited_at FROM working_memory_sections
    WHERE space = $1 AND edit IS NOT NULL ORDER BY day, section`,
};

interface RequestRow {
  key: string;
  thread_id: string;
  op: string;
  result: string;
  created_at: string;
}

interface EditRow {
  space: string;
  day: string;
  section: string;
  edit: string;
  edited_at: string | null;
}

export function createPgKnowledgeCatalog(db: PgStore): KnowledgeCatalog {
  const { pg } = db;
  const likePrefix = (within: string) => `${within.replace(/[\\%_]/g, '')}%`;
  const ids = (sql: string, params: unknown[]) => pg.query<{ id: string }>(sql, params).map((r) => r.id);

  return {
    spaces: () =>
      pg
        .query<{ space: string | null }>(SQL.spaces)
        .map((r) => r.space)
        .filter((s): s is string => !!s),
    memoryLabels: (space) => pg.query<Bucket>(SQL.labels, [space]),
    memoryTypes: (space) => pg.query<Bucket>(SQL.types, [space]),
    memoryDates: (space, within, granularity) =>
      pg.query<Bucket>(SQL.memoryDates, [granularity, space, likePrefix(within)]),
    memoriesOn: (space, day, limit, offset) => ids(SQL.memoriesOn, [space, day, limit, offset]),
    threadAgents: () => pg.query<Bucket>(SQL.agents),
    threadsOf: (agent, limit, offset) => ids(SQL.threadsOf, [agent, limit, offset]),
    threadDates: (within, granularity) =>
      pg.query<Bucket>(SQL.threadDates, [granularity, likePrefix(within)]),
    threadsOn: (day, limit, offset) => ids(SQL.threadsOn, [day, limit, offset]),
    wikiPaths: (space) => pg.query<{ path: string; removed: boolean }>(SQL.wikiPaths, [space]),
    savedRequests: (threadId) =>
      pg.query<RequestRow>(SQL.requests, [threadId]).map(
        (r): SavedRequest => ({
          key: r.key,
          threadId: r.thread_id,
          op: r.op,
          result: JSON.parse(r.result),
          createdAt: r.created_at,
        }),
      ),
    savedThreadIds: (spaces) =>
      spaces === null ? ids(SQL.savedAll, []) : spaces.length === 0 ? [] : ids(SQL.savedIn, [spaces]),
    workingMemoryDays: (space) => pg.query<{ day: string }>(SQL.wmDays, [space]).map((r) => r.day),
    workingMemoryEdits: (space) =>
      pg.query<EditRow>(SQL.wmEdits, [space]).map(
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
