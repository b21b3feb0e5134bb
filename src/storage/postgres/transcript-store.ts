/**
 * PostgreSQL implementation of the TranscriptStore port (tables of migrations/001), the twin of
 * storage/sqlite/transcript-store.ts. Every call is a round trip here, so the writer (see
 * transcript-writer.ts) buffers steps and cursors and sends them as multi-row statements, and
 * each read is one statement.
 *
 * `externalChanges()` reads `transcript_version`, a counter every write transaction bumps, minus
 * the bumps this store made itself: it moves only when another connection commits a write.
 */
import { TapedeckError } from '../../core/errors.js';
import type { ParsedQuery } from '../../core/query.js';
import type { AgentId } from '../../core/types.js';
import type { IssueRecord, StepRecord, StoreStats, TranscriptStore } from '../../ports/transcript-store.js';
import { type StepColumns, type ThreadRow, toStep, toThread } from '../transcript-rows.js';
import type { PgStore } from './open.js';
import { createPgRetriever, filterWhere } from './transcript-retrieval.js';
import { createPgTranscriptWriter } from './transcript-writer.js';

/**
 * A write transaction that brings the steps written since the last ANALYZE to this many, and to
 * at least the table's size then (it doubled), analyzes it: bulk loads would otherwise be
 * planned blind until autovacuum comes round (it plans `fts @@ common-word` as rare).
 */
const ANALYZE_MIN_ROWS = 5000;

/**
 * A write transaction that brings the steps written since the GIN pending lists were last merged
 * to this many merges them: every index search reads its whole pending list (up to 4 MB), which
 * made searches right after a bulk load several times slower.
 */
const CLEAN_MIN_ROWS = 500;

/** The tables this store owns (for the size in stats). */
const TABLES = ['threads', 'steps', 'files', 'issues', 'term_df', 'transcript_version'];

interface StepRow extends StepColumns {
  thread_id: string;
  source: string;
}

const rowToStep = (r: StepRow): StepRecord => toStep(r, r.thread_id, r.source);

/** A LIMIT/OFFSET value: SQLite reads a negative LIMIT as "no limit", PostgreSQL refuses it. */
const bound = (n: number): number | null =>
  Number.isFinite(n) && n >= 0 ? Math.min(Math.floor(n), Number.MAX_SAFE_INTEGER) : null;
/** A step number bound PostgreSQL's bigint can hold. */
const stepBound = (n: number): number =>
  Number.isNaN(n) ? 0 : Math.max(Number.MIN_SAFE_INTEGER, Math.min(Number.MAX_SAFE_INTEGER, Math.trunc(n)));

const STEP_COLS = `t.id AS thread_id, t.source, s.seq, s.step, s.role, s.kind, s.text, s.tool, s.target, s.ts, s.line`;

export function createPgTranscriptStore(db: PgStore): TranscriptStore {
  const { pg } = db;
  const path = db.schema === 'public' ? pg.label : `${pg.label} (schema ${db.schema})`;
  let analyzedRows = prepareTable(db);
  let sinceAnalyze = 0;
  let sinceClean = 0;
  let ownWrites = 0;
  const writer = createPgTranscriptWriter(pg);
  const retriever = createPgRetriever(db);
  /** Reads inside a write transaction must see the steps the writer still holds. */
  const read = <T>(fn: () => T): T => {
    writer.flush();
    return fn();
  };

  const threadById = (id: string) => pg.one<ThreadRow>('SELECT * FROM threads WHERE id = $1', [id]);

  return {
    path,
    backend: 'postgres',
    listCursors() {
      return read(() =>
        pg
          .query<Record<string, unknown>>(
            'SELECT path, agent, thread_id, size, mtime_ms, inode, "offset", line_no, head_hash FROM files',
          )
          .map((r) => ({
            path: r.path as string,
            agent: r.agent as AgentId,
            threadId: (r.thread_id as string | null) ?? null,
            size: r.size as number,
            mtimeMs: r.mtime_ms as number,
            inode: r.inode as number,
            offset: r.offset as number,
            lineNo: r.line_no as number,
            headHash: r.head_hash as string,
          })),
      );
    },
    externalChanges() {
      const n = pg.one<{ n: number }>('SELECT n FROM transcript_version')?.n ?? 0;
      return n - ownWrites;
    },
    cursorState(filePath) {
      return read(
        () =>
          pg.one<{ state: string | null }>('SELECT state FROM files WHERE path = $1', [filePath])?.state ??
          null,
      );
    },
    threadSource(threadId) {
      return pg.one<{ source: string }>('SELECT source FROM threads WHERE id = $1', [threadId])?.source;
    },
    write(fn) {
      let out: ReturnType<typeof fn>;
      try {
        out = pg.transaction(() => writer.run(fn), 'write');
      } finally {
        sinceAnalyze += writer.takeWritten();
      }
      ownWrites++;
      if (pg.inTransaction) return out;
      if (sinceAnalyze >= Math.max(ANALYZE_MIN_ROWS, analyzedRows)) {
        analyzedRows += sinceAnalyze;
        sinceAnalyze = sinceClean = 0;
        analyze(db);
      } else if (sinceAnalyze - sinceClean >= CLEAN_MIN_ROWS) {
        sinceClean = sinceAnalyze;
        cleanPendingLists(db);
      }
      return out;
    },
    candidates(query: ParsedQuery, filters, limit) {
      return read(() => retriever.candidates(query, filters, limit));
    },
    candidatesAmong(rowids, filters, limit) {
      return read(() => retriever.candidatesAmong(rowids, filters, limit));
    },
    getThread(threadId) {
      const r = read(() => threadById(threadId));
      return r ? toThread(r) : undefined;
    },
    getSteps(threadId, from, to, limit) {
      return read(() => {
        const rows = pg.query<StepRow>(
          `SELECT ${STEP_COLS} FROM threads t JOIN steps s ON s.tid = t.tid
             WHERE t.id = $1 AND s.step >= $2 AND s.step <= $3 ORDER BY s.seq LIMIT $4`,
          [threadId, stepBound(from), stepBound(to), bound(limit)],
        );
        // Never half a step: the rest of the parts sharing the last row's number come too.
        const last = rows.at(-1);
        if (last && rows.length === limit)
          rows.push(
            ...pg.query<StepRow>(
              `SELECT ${STEP_COLS} FROM threads t JOIN steps s ON s.tid = t.tid
                 WHERE t.id = $1 AND s.step = $2 AND s.seq > $3 ORDER BY s.seq`,
              [threadId, last.step, last.seq],
            ),
          );
        return rows.map(rowToStep);
      });
    },
    stepWindow(threadId, step, before, after) {
      const at = stepBound(step);
      // Counted in step numbers, not rows: every part of a step comes with it. One statement:
      // the bounds are the before-th step number below and the after-th from `step` on.
      const rows = read(() =>
        pg.query<StepRow>(
          `WITH th AS (SELECT tid FROM threads WHERE id = $1),
             lo AS (SELECT (SELECT s.step FROM steps s, th WHERE s.tid = th.tid AND s.step < $2
                      GROUP BY s.step ORDER BY s.step DESC LIMIT 1 OFFSET $3) AS v),
             hi AS (SELECT (SELECT s.step FROM steps s, th WHERE s.tid = th.tid AND s.step >= $2
                      GROUP BY s.step ORDER BY s.step LIMIT 1 OFFSET $4) AS v)
           SELECT ${STEP_COLS} FROM threads t JOIN steps s ON s.tid = t.tid, lo, hi
           WHERE t.id = $1
             AND (($5 AND s.step < $2 AND s.step >= COALESCE(lo.v, ${Number.MIN_SAFE_INTEGER}))
               OR ($6 AND s.step >= $2 AND s.step <= COALESCE(hi.v, ${Number.MAX_SAFE_INTEGER})))
           ORDER BY s.seq`,
          [threadId, at, Math.max(0, before - 1), Math.max(0, after), before > 0, after >= 0],
        ),
      );
      return rows.map(rowToStep);
    },
    listThreads(filters, limit, offset) {
      const params: unknown[] = [];
      const p = (v: unknown) => {
        params.push(v);
        return `$${params.length}`;
      };
      const where = filterWhere({ ...filters, roles: undefined, since: undefined, until: undefined }, p);
      if (filters.since) where.push(`t.updated_at >= ${p(filters.since)}`);
      if (filters.until) where.push(`t.started_at <= ${p(filters.until)}`);
      const rows = read(() =>
        pg.query<ThreadRow>(
          `SELECT t.* FROM threads t ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
           ORDER BY t.updated_at DESC NULLS LAST, t.id DESC LIMIT ${p(bound(limit))} OFFSET ${p(bound(offset) ?? 0)}`,
          params,
        ),
      );
      return rows.map(toThread);
    },
    projects(filters) {
      const params: unknown[] = [];
      const p = (v: unknown) => {
        params.push(v);
        return `$${params.length}`;
      };
      const where = filterWhere({ agents: filters.agents, spaces: filters.spaces }, p);
      const rows = read(() =>
        pg.query<{ project: string }>(
          `SELECT DISTINCT t.project FROM threads t WHERE t.project IS NOT NULL${where.map((w) => ` AND ${w}`).join('')}`,
          params,
        ),
      );
      return rows.map((r) => r.project);
    },
    stats(): StoreStats {
      const r = read(() =>
        pg.one<{
          threads: number;
          steps: number;
          files: number;
          issues: number;
          bytes: number;
          agents: { agent: string; threads: number; steps: number; last: string | null }[] | null;
          agent_files: { agent: string; n: number }[] | null;
        }>(
          `SELECT (SELECT count(*) FROM threads) AS threads, (SELECT count(*) FROM steps) AS steps,
             (SELECT count(*) FROM files) AS files, (SELECT count(*) FROM issues) AS issues,
             (SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c
               WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r' AND c.relname = ANY($1::text[])) AS bytes,
             (SELECT json_agg(a ORDER BY a.agent) FROM (SELECT agent, count(*) AS threads,
               coalesce(sum(step_count), 0) AS steps, max(updated_at) AS last FROM threads GROUP BY agent) a) AS agents,
             (SELECT json_agg(f ORDER BY f.agent) FROM (SELECT agent, count(*) AS n FROM files GROUP BY agent) f) AS agent_files`,
          [TABLES],
        ),
      )!;
      const perAgent: StoreStats['perAgent'] = {};
      for (const a of r.agents ?? [])
        perAgent[a.agent] = { threads: a.threads, steps: a.steps, files: 0, lastUpdated: a.last };
      for (const f of r.agent_files ?? []) {
        perAgent[f.agent] ??= { threads: 0, steps: 0, files: 0, lastUpdated: null };
        perAgent[f.agent].files = f.n;
      }
      return {
        threads: r.threads,
        steps: r.steps,
        files: r.files,
        issues: r.issues,
        perAgent,
        dbBytes: r.bytes,
        path,
        backend: 'postgres',
      };
    },
    listIssues(limit) {
      return read(() =>
        pg
          .query<{ path: string; line: number | null; message: string; at: string }>(
            'SELECT path, line, message, at FROM issues ORDER BY id DESC LIMIT $1',
            [bound(limit)],
          )
          .map(
            (x) =>
              ({
                path: x.path,
                line: x.line ?? undefined,
                message: x.message,
                at: x.at,
              }) satisfies IssueRecord,
          ),
      );
    },
    integrityCheck() {
      const problems: string[] = [];
      const r = read(() =>
        pg.one<{ missing: string[] | null; invalid: string[] | null; orphans: number; unindexed: number }>(
          `SELECT
             (SELECT array_agg(n) FROM unnest($1::text[]) n WHERE to_regclass(n) IS NULL) AS missing,
             (SELECT array_agg(i.indexrelid::regclass::text) FROM pg_index i
               WHERE NOT i.indisvalid AND i.indrelid IN (SELECT to_regclass(n) FROM unnest($1::text[]) n)) AS invalid,
             (SELECT count(*) FROM steps s WHERE NOT EXISTS (SELECT 1 FROM threads t WHERE t.tid = s.tid)) AS orphans,
             (SELECT count(*) FROM steps WHERE fts = ''::tsvector AND text ~ '[[:alnum:]]') AS unindexed`,
          [TABLES],
        ),
      );
      if (!r) return ['the transcript tables could not be read'];
      if (r.missing?.length) problems.push(`missing tables: ${r.missing.join(', ')}`);
      if (r.invalid?.length) problems.push(`invalid indexes (rebuild with REINDEX): ${r.invalid.join(', ')}`);
      if (r.orphans > 0) problems.push(`${r.orphans} steps belong to no thread`);
      if (r.unindexed > 0) problems.push(`full-text index: ${r.unindexed} steps have no search terms`);
      return problems;
    },
    close() {
      pg.close();
    },
  };
}

/**
 * The trigram index for identifier substrings, created on first use of a server that has
 * pg_trgm (the migration must work without it). It covers `ident_tokens`, the step's
 * identifier-like tokens (transcript-fts.ts identTokens), not the whole text: the substring
 * lookup is only ever for an identifier, and trigrams of prose made indexing 4× slower. Partial,
 * so the many steps without identifiers cost nothing. Looked up first: CREATE INDEX IF NOT
 * EXISTS would wait for the table's writers even when the index is there.
 * Returns the steps the planner statistics last counted (0 when never analyzed).
 */
function prepareTable(db: PgStore): number {
  const r = db.pg.one<{ ok: boolean; rows: number }>(
    `SELECT to_regclass('steps_ident_trgm') IS NOT NULL AS ok,
       greatest(coalesce((SELECT reltuples FROM pg_class WHERE oid = to_regclass('steps')), 0), 0)::float8 AS rows`,
  );
  if (db.capabilities.trigram && !r?.ok) {
    try {
      db.pg.exec(
        `CREATE INDEX IF NOT EXISTS steps_ident_trgm ON steps USING GIN (ident_tokens public.gin_trgm_ops)
         WHERE ident_tokens <> ''`,
      );
    } catch {
      // without it, substring lookups scan: slower, still correct
    }
  }
  return r?.rows ?? 0;
}

/**
 * Fresh planner statistics after a bulk write, and the GIN indexes' pending lists merged (every
 * search reads the whole pending list; only autovacuum would merge it otherwise). Best effort:
 * a role that does not own the tables just leaves it to autovacuum.
 */
function analyze(db: PgStore): void {
  try {
    db.pg.exec('ANALYZE (SKIP_LOCKED) threads, steps');
  } catch (e) {
    if (e instanceof TapedeckError) throw e;
  }
  cleanPendingLists(db);
}

function cleanPendingLists(db: PgStore): void {
  try {
    db.pg.exec(
      `SELECT gin_clean_pending_list(i) FROM unnest(ARRAY[to_regclass('steps_fts'), to_regclass('steps_ident_trgm')]) i
       WHERE i IS NOT NULL`,
    );
  } catch (e) {
    if (e instanceof TapedeckError) throw e;
  }
}
