/**
 * The PostgreSQL TranscriptWriter. SQLite answers a statement in microseconds; here each one is a
 * round trip, so a file of 1,000 steps must not cost 1,000 of them:
 *   - steps are buffered and sent as one multi-row upsert (unnest of column arrays) when the
 *     transaction ends, before anything reads steps, or every FLUSH_ROWS rows;
 *   - whether a step is new, changed or unchanged is known without asking: the writer keeps, per
 *     thread and per transaction, what it knows of the stored steps (hash, kind, time, line).
 *     A thread created in this transaction, or with no steps, needs no lookup at all; otherwise
 *     the stored steps from the first step written onwards are read once (an append reads only
 *     the tail). So the 'inserted' | 'updated' | 'unchanged' answers are exact, as in SQLite;
 *   - cursors and step counts are buffered too and sent with the version bump in one statement.
 * Per write transaction: one upsert per thread, one per FLUSH_ROWS steps, one closing statement.
 */
import { type ParseIssue, type StepKind, seqOf } from '../../core/types.js';
import type { FileCursor, PreparedStep, StoredTurn, TranscriptWriter } from '../../ports/transcript-store.js';
import type { PgSync } from './sync-client.js';
import { identTokens, stepTsvector } from './transcript-fts.js';

const MAX_ISSUES_PER_FILE = 100;
/** Buffered steps sent at most in one statement (and the text size that also triggers a flush). */
const FLUSH_ROWS = 2000;
const FLUSH_CHARS = 8_000_000;

/** PostgreSQL text cannot hold NUL; transcripts (tool output) sometimes do. */
const clean = (s: string) => (s.includes('\0') ? s.replace(/\0/g, '\uFFFD') : s);
const cleanOrNull = (s: string | undefined | null) => (s == null ? null : clean(s));

interface Known {
  hash: number;
  kind: string;
  ts: string | null;
  line: number;
}

interface ThreadState {
  tid: number;
  /** Every stored step ordered (seq) >= knownFrom is in `rows`, keyed by seq (-Infinity: all of them). */
  knownFrom: number;
  rows: Map<number, Known>;
}

interface BufferedStep {
  tid: number;
  s: PreparedStep;
}

export interface PgWriterHost {
  /** Run `fn` with the writer inside the caller's transaction; buffered writes are sent before it returns. */
  run<T>(fn: (w: TranscriptWriter) => T): T;
  /** Send buffered steps, cursors and counts now (a read is coming). */
  flush(): void;
  /** Steps sent (inserted or changed) since the last call. */
  takeWritten(): number;
}

export function createPgTranscriptWriter(pg: PgSync): PgWriterHost {
  let depth = 0;
  const threads = new Map<string, ThreadState>();
  const steps = new Map<string, BufferedStep>();
  let stepChars = 0;
  let written = 0;
  const meta = new Map<string, { tid: number; seq: number; ts: string | null; line: number }>();
  const cursors = new Map<string, FileCursor & { at: string }>();
  const counts = new Set<string>();

  function flushSteps(): void {
    if (steps.size === 0 && meta.size === 0) return;
    const rows = [...steps.values()];
    const m = [...meta.values()];
    steps.clear();
    meta.clear();
    stepChars = 0;
    const params: unknown[] = [];
    const parts: string[] = [];
    if (m.length > 0) {
      params.push(
        m.map((x) => x.tid),
        m.map((x) => x.seq),
        m.map((x) => x.ts),
        m.map((x) => x.line),
      );
      parts.push(`UPDATE steps s SET ts = v.ts, line = v.line
        FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::bigint[]) AS v(tid, seq, ts, line)
        WHERE s.tid = v.tid AND s.seq = v.seq`);
    }
    if (rows.length > 0) {
      written += rows.length;
      const at = params.length;
      params.push(
        rows.map((r) => r.tid),
        rows.map((r) => seqOf(r.s)),
        rows.map((r) => r.s.step),
        rows.map((r) => r.s.role),
        rows.map((r) => r.s.kind),
        rows.map((r) => clean(r.s.text)),
        rows.map((r) => cleanOrNull(r.s.tool)),
        rows.map((r) => cleanOrNull(r.s.target)),
        rows.map((r) => cleanOrNull(r.s.timestamp)),
        rows.map((r) => r.s.source.line),
        rows.map((r) => clean(r.s.idents)),
        rows.map((r) => r.s.hash),
        rows.map((r) => stepTsvector(r.s.kind, r.s.text, r.s.idents, r.s.context)),
        rows.map((r) => clean(identTokens(r.s.text))),
        rows.map((r) => clean(r.s.context)),
      );
      const $ = (i: number) => `$${at + i}`;
      const insert = `INSERT INTO steps (tid, seq, step, role, kind, text, tool, target, ts, line, idents, hash, fts, ident_tokens, ctx)
        SELECT * FROM unnest(${$(1)}::bigint[], ${$(2)}::bigint[], ${$(3)}::bigint[], ${$(4)}::text[], ${$(5)}::text[],
          ${$(6)}::text[], ${$(7)}::text[], ${$(8)}::text[], ${$(9)}::text[], ${$(10)}::bigint[], ${$(11)}::text[],
          ${$(12)}::bigint[], ${$(13)}::tsvector[], ${$(14)}::text[], ${$(15)}::text[])
        ON CONFLICT (tid, seq) DO UPDATE SET step = excluded.step, role = excluded.role, kind = excluded.kind, text = excluded.text,
          tool = excluded.tool, target = excluded.target, ts = excluded.ts, line = excluded.line,
          idents = excluded.idents, hash = excluded.hash, fts = excluded.fts, ident_tokens = excluded.ident_tokens,
          ctx = excluded.ctx`;
      parts.push(insert);
    }
    // Both in one statement when both are due (they touch different rows).
    pg.run(parts.length === 2 ? `WITH meta AS (${parts[0]}) ${parts[1]}` : parts[0]!, params);
  }

  /** Buffered cursors and step counts as one statement, with `tail` (the version bump) after them. */
  function sendCursorsAndCounts(tail: string | null): void {
    if (!tail && cursors.size === 0 && counts.size === 0) return;
    const c = [...cursors.values()];
    cursors.clear();
    const ids = [...counts];
    counts.clear();
    const cnt = `UPDATE threads t SET step_count = (SELECT count(*) FROM steps s WHERE s.tid = t.tid) WHERE t.id = ANY($12::text[])`;
    pg.run(
      tail
        ? `WITH cur AS (${CURSOR_UPSERT}), cnt AS (${cnt}) ${tail}`
        : `WITH cur AS (${CURSOR_UPSERT}) ${cnt}`,
      [...cursorParams(c), ids],
    );
  }

  /** Steps, then cursors, counts and the version bump in one statement. */
  function finish(): void {
    flushSteps();
    sendCursorsAndCounts('UPDATE transcript_version SET n = n + 1');
  }

  function discard(): void {
    threads.clear();
    steps.clear();
    meta.clear();
    stepChars = 0;
    cursors.clear();
    counts.clear();
  }

  function threadState(threadId: string): ThreadState {
    let t = threads.get(threadId);
    if (t) return t;
    const r = pg.one<{ tid: number; has_steps: boolean }>(
      'SELECT tid, EXISTS (SELECT 1 FROM steps s WHERE s.tid = threads.tid) AS has_steps FROM threads WHERE id = $1',
      [threadId],
    );
    if (!r) throw new Error(`thread ${threadId} must be upserted before its steps`);
    t = {
      tid: r.tid,
      knownFrom: r.has_steps ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY,
      rows: new Map(),
    };
    threads.set(threadId, t);
    return t;
  }

  /** What is stored at order `seq` (buffered writes included), reading the stored tail once if needed. */
  function known(t: ThreadState, seq: number): Known | undefined {
    const k = t.rows.get(seq);
    if (k || seq >= t.knownFrom) return k;
    const upper = Number.isFinite(t.knownFrom) ? t.knownFrom : null;
    const rows = pg.query<Known & { seq: number }>(
      `SELECT seq, hash, kind, ts, line FROM steps WHERE tid = $1 AND seq >= $2 ${upper === null ? '' : 'AND seq < $3'}`,
      upper === null ? [t.tid, seq] : [t.tid, seq, upper],
    );
    for (const r of rows) t.rows.set(r.seq, { hash: r.hash, kind: r.kind, ts: r.ts, line: r.line });
    t.knownFrom = seq;
    return t.rows.get(seq);
  }

  const writer: TranscriptWriter = {
    upsertThread(m) {
      const r = pg.one<{ tid: number; has_steps: boolean }>(
        `INSERT INTO threads (id, agent, session_id, project, title, started_at, updated_at, source, parent_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (id) DO UPDATE SET
           project = COALESCE(excluded.project, threads.project),
           title = COALESCE(threads.title, excluded.title),
           started_at = LEAST(threads.started_at, excluded.started_at),
           updated_at = GREATEST(threads.updated_at, excluded.updated_at),
           source = excluded.source,
           parent_id = COALESCE(excluded.parent_id, threads.parent_id),
           -- the file is back (or another took over): a deletion mark goes; a truncation stays
           source_gone_at = CASE WHEN threads.source_gone = 'truncated' AND threads.source = excluded.source
             THEN threads.source_gone_at END,
           source_gone = CASE WHEN threads.source_gone = 'truncated' AND threads.source = excluded.source
             THEN threads.source_gone END
         RETURNING tid, EXISTS (SELECT 1 FROM steps s WHERE s.tid = threads.tid) AS has_steps`,
        [
          m.id,
          m.agent,
          clean(m.sessionId),
          cleanOrNull(m.project),
          cleanOrNull(m.title),
          cleanOrNull(m.startedAt),
          cleanOrNull(m.updatedAt),
          clean(m.source),
          cleanOrNull(m.parentId),
        ],
      )!;
      if (!threads.has(m.id))
        threads.set(m.id, {
          tid: r.tid,
          knownFrom: r.has_steps ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY,
          rows: new Map(),
        });
    },
    upsertStep(threadId, s) {
      const t = threadState(threadId);
      const seq = seqOf(s);
      const old = known(t, seq);
      const ts = s.timestamp ?? null;
      const key = `${t.tid}:${seq}`;
      if (old && old.hash === s.hash && old.kind === s.kind) {
        if (old.ts !== ts || old.line !== s.source.line) {
          const pending = steps.get(key);
          if (pending) pending.s = { ...pending.s, timestamp: s.timestamp, source: s.source };
          else meta.set(key, { tid: t.tid, seq, ts: cleanOrNull(ts), line: s.source.line });
          old.ts = ts;
          old.line = s.source.line;
        }
        return 'unchanged';
      }
      meta.delete(key);
      steps.set(key, { tid: t.tid, s });
      stepChars += s.text.length + s.idents.length;
      t.rows.set(seq, { hash: s.hash, kind: s.kind, ts, line: s.source.line });
      if (steps.size >= FLUSH_ROWS || stepChars >= FLUSH_CHARS) flushSteps();
      return old ? 'updated' : 'inserted';
    },
    truncateSteps(threadId, from) {
      flushSteps();
      pg.run('DELETE FROM steps WHERE tid = (SELECT tid FROM threads WHERE id = $1) AND seq >= $2', [
        threadId,
        Math.max(Number.MIN_SAFE_INTEGER, Math.min(Number.MAX_SAFE_INTEGER, Math.trunc(from))),
      ]);
      const t = threads.get(threadId);
      if (!t) return;
      for (const n of t.rows.keys()) if (n >= from) t.rows.delete(n);
      t.knownFrom = Math.min(t.knownFrom, from);
    },
    retainSteps(threadId, keep) {
      flushSteps();
      pg.run(
        'DELETE FROM steps WHERE tid = (SELECT tid FROM threads WHERE id = $1) AND NOT (seq = ANY($2::bigint[]))',
        [threadId, [...keep]],
      );
      const t = threads.get(threadId);
      if (t) for (const n of t.rows.keys()) if (!keep.has(n)) t.rows.delete(n);
    },
    refreshThreadCounts(threadId) {
      counts.add(threadId);
    },
    saveCursor(c) {
      cursors.set(c.path, { ...c, at: new Date().toISOString() });
    },
    markSourceGone(filePath, reason, at) {
      flushSteps();
      pg.run(
        `UPDATE threads SET source_gone_at = CASE WHEN source_gone = $2 THEN source_gone_at ELSE $3 END,
           source_gone = $2 WHERE source = $1`,
        [filePath, reason, at],
      );
      if (reason !== 'deleted') return;
      cursors.delete(filePath);
      pg.run('WITH f AS (DELETE FROM files WHERE path = $1) DELETE FROM issues WHERE path = $1', [filePath]);
    },
    forgetThread(threadId) {
      flushSteps();
      counts.delete(threadId);
      const gone = pg.query<{ tid: number }>(
        `WITH th AS (DELETE FROM threads WHERE id = $1 RETURNING tid),
           st AS (DELETE FROM steps WHERE tid IN (SELECT tid FROM th))
         SELECT tid FROM th`,
        [threadId],
      );
      threads.delete(threadId);
      return gone.length > 0;
    },
    addIssues(filePath, issues: ParseIssue[]) {
      if (issues.length === 0) return;
      pg.run(
        `INSERT INTO issues (path, line, message, at)
         SELECT u.path, u.line, u.message, $4 FROM unnest($1::text[], $2::bigint[], $3::text[]) WITH ORDINALITY AS u(path, line, message, i)
         WHERE u.i <= ${MAX_ISSUES_PER_FILE} - (SELECT count(*) FROM issues WHERE path = $5)
         ORDER BY u.i`,
        [
          issues.map((i) => clean(i.path || filePath)),
          issues.map((i) => i.line ?? null),
          issues.map((i) => clean(i.message.slice(0, 500))),
          new Date().toISOString(),
          filePath,
        ],
      );
    },
    clearIssues(filePath) {
      pg.run('DELETE FROM issues WHERE path = $1', [filePath]);
    },
    storedTurns(threadId, before, after) {
      const t = threadState(threadId);
      // A thread with nothing stored before this transaction needs no round trip.
      if (t.knownFrom === Number.NEGATIVE_INFINITY && t.rows.size === 0) return {};
      flushSteps();
      const turn = (cmp: string, order: string, at: number) =>
        `(SELECT json_build_object('seq', seq, 'text', text, 'context', ctx) FROM steps
          WHERE tid = $1 AND seq ${cmp} $${at} AND kind IN ('prompt', 'response', 'summary')
          ORDER BY seq ${order} LIMIT 1)`;
      const r = pg.one<{ p: StoredTurn | null; n: StoredTurn | null }>(
        `SELECT ${turn('<', 'DESC', 2)} AS p, ${turn('>', 'ASC', 3)} AS n`,
        [t.tid, Math.trunc(before), Math.trunc(after)],
      );
      return { previous: r?.p ?? undefined, next: r?.n ?? undefined };
    },
    setContext(threadId, seq, context, hash) {
      const t = threadState(threadId);
      flushSteps();
      const row = pg.one<{ kind: StepKind; text: string; idents: string }>(
        'SELECT kind, text, idents FROM steps WHERE tid = $1 AND seq = $2',
        [t.tid, seq],
      );
      if (!row) return;
      pg.run('UPDATE steps SET ctx = $3, hash = $4, fts = $5::tsvector WHERE tid = $1 AND seq = $2', [
        t.tid,
        seq,
        clean(context),
        hash,
        stepTsvector(row.kind, row.text, row.idents, context),
      ]);
      const known = t.rows.get(seq);
      if (known) known.hash = hash;
    },
  };

  return {
    run(fn) {
      // A nested write (a savepoint) first sends what the outer one buffered: if the inner one
      // fails, only its own buffered writes are dropped.
      if (depth > 0) flushSteps();
      else discard();
      depth++;
      try {
        const out = fn(writer);
        finish();
        return out;
      } catch (e) {
        discard();
        throw e;
      } finally {
        depth--;
      }
    },
    flush() {
      if (depth === 0) return;
      flushSteps();
      sendCursorsAndCounts(null);
    },
    takeWritten() {
      const n = written;
      written = 0;
      return n;
    },
  };
}

const CURSOR_UPSERT = `INSERT INTO files (path, agent, thread_id, size, mtime_ms, inode, "offset", line_no, head_hash, state, indexed_at)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::float8[], $6::bigint[], $7::bigint[],
    $8::bigint[], $9::text[], $10::text[], $11::text[])
  ON CONFLICT (path) DO UPDATE SET agent = excluded.agent, thread_id = excluded.thread_id, size = excluded.size,
    mtime_ms = excluded.mtime_ms, inode = excluded.inode, "offset" = excluded."offset", line_no = excluded.line_no,
    head_hash = excluded.head_hash, state = excluded.state, indexed_at = excluded.indexed_at`;

function cursorParams(c: (FileCursor & { at: string })[]): unknown[] {
  return [
    c.map((x) => x.path),
    c.map((x) => x.agent),
    c.map((x) => x.threadId),
    c.map((x) => x.size),
    c.map((x) => x.mtimeMs),
    c.map((x) => x.inode),
    c.map((x) => x.offset),
    c.map((x) => x.lineNo),
    c.map((x) => x.headHash),
    c.map((x) => cleanOrNull(x.state)),
    c.map((x) => x.at),
  ];
}
