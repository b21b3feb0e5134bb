/** SQLite implementation of the TranscriptStore port. */
import { statSync } from 'node:fs';
import type { ParsedQuery } from '../../core/query.js';
import { type AgentId, type ParseIssue, type StepKind, seqOf } from '../../core/types.js';
import type {
  IssueRecord,
  StoredTurn,
  StoreStats,
  TranscriptStore,
  TranscriptWriter,
} from '../../ports/transcript-store.js';
import { type StepColumns, type ThreadRow, toStep, toThread } from '../transcript-rows.js';
import { type Db, sqliteGuard } from './open.js';
import { createRetriever, filterSql } from './retrieval.js';

const FTS_COLS = 'prompt, response, reasoning, tool_call, tool_output, idents, tool_idents, context';
const FTS_VALUES_FROM_STEPS = `CASE WHEN kind = 'prompt' THEN text END,
  CASE WHEN kind IN ('response', 'summary') THEN text END,
  CASE WHEN kind = 'reasoning' THEN text END,
  CASE WHEN kind = 'tool_call' THEN text END,
  CASE WHEN kind = 'tool_result' THEN text END,
  CASE WHEN kind IN ('tool_call', 'tool_result') THEN NULL ELSE idents END,
  CASE WHEN kind IN ('tool_call', 'tool_result') THEN idents END,
  ctx`;
const KIND_COLUMN: Record<StepKind, number> = {
  prompt: 0,
  response: 1,
  summary: 1,
  reasoning: 2,
  tool_call: 3,
  tool_result: 4,
};
const MAX_ISSUES_PER_FILE = 100;
/** FTS5's own defaults, for a store that never set them. */
const FTS_MERGE_DEFAULTS = { automerge: 4, crisismerge: 16 };
/**
 * During bulk writes a level of the full-text index is merged only when it holds this many
 * segments (one per transaction): merging as it goes (FTS5's default, 4 at a time) rewrites the
 * same postings again at every level, and at a million steps that was most of the commit time.
 * The bound keeps a search run meanwhile from visiting more segments than this per level.
 */
const BULK_CRISISMERGE = 128;
/** Leaf pages (~4 KB each) merged per transaction when bulk writes settle. */
const SETTLE_PAGES = 4000;

interface StepRow extends StepColumns {
  id: number;
  tid: number;
  hash: number;
}

export function createSqliteTranscriptStore(db: Db, path: string): TranscriptStore {
  const stmt = {
    threadById: db.prepare<[string], ThreadRow>('SELECT * FROM threads WHERE id = ?'),
    insertThread: db.prepare(
      `INSERT INTO threads (id, agent, session_id, project, title, started_at, updated_at, source, parent_id)
       VALUES (@id, @agent, @sessionId, @project, @title, @startedAt, @updatedAt, @source, @parentId)
       ON CONFLICT(id) DO UPDATE SET
         project = COALESCE(excluded.project, threads.project),
         title = COALESCE(threads.title, excluded.title),
         started_at = MIN(COALESCE(threads.started_at, excluded.started_at), COALESCE(excluded.started_at, threads.started_at)),
         updated_at = MAX(COALESCE(threads.updated_at, excluded.updated_at), COALESCE(excluded.updated_at, threads.updated_at)),
         source = excluded.source,
         parent_id = COALESCE(excluded.parent_id, threads.parent_id),
         -- the file is back (or another took over): a deletion mark goes; a truncation stays
         source_gone_at = CASE WHEN threads.source_gone = 'truncated' AND threads.source = excluded.source
           THEN threads.source_gone_at END,
         source_gone = CASE WHEN threads.source_gone = 'truncated' AND threads.source = excluded.source
           THEN threads.source_gone END`,
    ),
    tidOf: db.prepare<[string], { tid: number }>('SELECT tid FROM threads WHERE id = ?'),
    stepAt: db.prepare<[number, number], { id: number; hash: number; kind: StepKind }>(
      'SELECT id, hash, kind FROM steps WHERE tid = ? AND seq = ?',
    ),
    insertStep: db.prepare(
      `INSERT INTO steps (tid, seq, step, role, kind, text, tool, target, ts, line, idents, ctx, hash)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    updateStep: db.prepare(
      `UPDATE steps SET role = ?, kind = ?, text = ?, tool = ?, target = ?, ts = ?, line = ?, idents = ?, ctx = ?, hash = ?
       WHERE id = ?`,
    ),
    turnBefore: db.prepare<[number, number], StoredTurn>(
      `SELECT seq, text, ctx AS context FROM steps
       WHERE tid = ? AND seq < ? AND kind IN ('prompt', 'response', 'summary') ORDER BY seq DESC LIMIT 1`,
    ),
    turnAfter: db.prepare<[number, number], StoredTurn>(
      `SELECT seq, text, ctx AS context FROM steps
       WHERE tid = ? AND seq > ? AND kind IN ('prompt', 'response', 'summary') ORDER BY seq LIMIT 1`,
    ),
    stepRow: db.prepare<[number, number], { id: number; kind: StepKind; text: string; idents: string }>(
      'SELECT id, kind, text, idents FROM steps WHERE tid = ? AND seq = ?',
    ),
    setContext: db.prepare('UPDATE steps SET ctx = ?, hash = ? WHERE id = ?'),
    updateStepMeta: db.prepare('UPDATE steps SET ts = ?, line = ? WHERE id = ?'),
    insertFts: db.prepare(`INSERT INTO steps_fts (rowid, ${FTS_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    deleteFtsOne: db.prepare(
      `INSERT INTO steps_fts (steps_fts, rowid, ${FTS_COLS}) SELECT 'delete', id, ${FTS_VALUES_FROM_STEPS} FROM steps WHERE id = ?`,
    ),
    deleteFtsFrom: db.prepare(
      `INSERT INTO steps_fts (steps_fts, rowid, ${FTS_COLS}) SELECT 'delete', id, ${FTS_VALUES_FROM_STEPS} FROM steps WHERE tid = ? AND seq >= ?`,
    ),
    deleteStepsFrom: db.prepare('DELETE FROM steps WHERE tid = ? AND seq >= ?'),
    stepNumbers: db.prepare<[number], { id: number; seq: number }>('SELECT id, seq FROM steps WHERE tid = ?'),
    deleteStep: db.prepare('DELETE FROM steps WHERE id = ?'),
    countSteps: db.prepare(
      'UPDATE threads SET step_count = (SELECT COUNT(*) FROM steps WHERE steps.tid = threads.tid) WHERE id = ?',
    ),
    deleteThread: db.prepare('DELETE FROM threads WHERE tid = ?'),
    markGone: db.prepare(
      `UPDATE threads SET source_gone_at = CASE WHEN source_gone = @reason THEN source_gone_at ELSE @at END,
         source_gone = @reason WHERE source = @path`,
    ),
    saveCursor: db.prepare(
      `INSERT OR REPLACE INTO files (path, agent, thread_id, size, mtime_ms, inode, offset, line_no, head_hash, state, indexed_at)
       VALUES (@path, @agent, @threadId, @size, @mtimeMs, @inode, @offset, @lineNo, @headHash, @state, @at)`,
    ),
    deleteCursor: db.prepare('DELETE FROM files WHERE path = ?'),
    countIssues: db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM issues WHERE path = ?'),
    insertIssue: db.prepare('INSERT INTO issues (path, line, message, at) VALUES (?, ?, ?, ?)'),
    clearIssues: db.prepare('DELETE FROM issues WHERE path = ?'),
  };

  function ftsValues(kind: StepKind, text: string, idents: string, context: string): (string | null)[] {
    const tool = kind === 'tool_call' || kind === 'tool_result';
    const cols: (string | null)[] = [
      null,
      null,
      null,
      null,
      null,
      tool ? null : idents,
      tool ? idents : null,
      context,
    ];
    cols[KIND_COLUMN[kind]] = text;
    return cols;
  }

  // The last thread written: consecutive steps nearly always belong to it.
  let lastThread: { id: string; tid: number } | undefined;
  function tidOrThrow(threadId: string): number {
    if (lastThread?.id === threadId) return lastThread.tid;
    const row = stmt.tidOf.get(threadId);
    if (!row) throw new Error(`thread ${threadId} must be upserted before its steps`);
    lastThread = { id: threadId, tid: row.tid };
    return row.tid;
  }

  const writer: TranscriptWriter = {
    upsertThread(meta) {
      stmt.insertThread.run({
        id: meta.id,
        agent: meta.agent,
        sessionId: meta.sessionId,
        project: meta.project ?? null,
        title: meta.title ?? null,
        startedAt: meta.startedAt ?? null,
        updatedAt: meta.updatedAt ?? null,
        source: meta.source,
        parentId: meta.parentId ?? null,
      });
    },
    upsertStep(threadId, s, likelyNew = false) {
      const tid = tidOrThrow(threadId);
      const args = [
        s.text,
        s.tool ?? null,
        s.target ?? null,
        s.timestamp ?? null,
        s.source.line,
        s.idents,
        s.context,
        s.hash,
      ];
      const insert = () => {
        const { lastInsertRowid } = stmt.insertStep.run(tid, seqOf(s), s.step, s.role, s.kind, ...args);
        stmt.insertFts.run(lastInsertRowid, ...ftsValues(s.kind, s.text, s.idents, s.context));
        return 'inserted' as const;
      };
      if (likelyNew) {
        try {
          return insert();
        } catch (e) {
          if ((e as { code?: string }).code !== 'SQLITE_CONSTRAINT_UNIQUE') throw e;
        }
      }
      const old = stmt.stepAt.get(tid, seqOf(s));
      if (!old) return insert();
      if (old.hash === s.hash && old.kind === s.kind) {
        stmt.updateStepMeta.run(s.timestamp ?? null, s.source.line, old.id);
        return 'unchanged';
      }
      stmt.deleteFtsOne.run(old.id);
      stmt.updateStep.run(s.role, s.kind, ...args, old.id);
      stmt.insertFts.run(old.id, ...ftsValues(s.kind, s.text, s.idents, s.context));
      return 'updated';
    },
    truncateSteps(threadId, from) {
      const row = stmt.tidOf.get(threadId);
      if (!row) return;
      stmt.deleteFtsFrom.run(row.tid, from);
      stmt.deleteStepsFrom.run(row.tid, from);
    },
    retainSteps(threadId, keep) {
      const row = stmt.tidOf.get(threadId);
      if (!row) return;
      for (const s of stmt.stepNumbers.all(row.tid)) {
        if (keep.has(s.seq)) continue;
        stmt.deleteFtsOne.run(s.id);
        stmt.deleteStep.run(s.id);
      }
    },
    refreshThreadCounts(threadId) {
      stmt.countSteps.run(threadId);
    },
    saveCursor(c) {
      stmt.saveCursor.run({
        ...c,
        at: new Date().toISOString(),
      });
    },
    markSourceGone(filePath, reason, at) {
      stmt.markGone.run({ path: filePath, reason, at });
      if (reason !== 'deleted') return;
      stmt.deleteCursor.run(filePath);
      stmt.clearIssues.run(filePath);
    },
    forgetThread(threadId) {
      const row = stmt.tidOf.get(threadId);
      if (!row) return false;
      stmt.deleteFtsFrom.run(row.tid, Number.MIN_SAFE_INTEGER);
      stmt.deleteStepsFrom.run(row.tid, Number.MIN_SAFE_INTEGER);
      stmt.deleteThread.run(row.tid);
      if (lastThread?.tid === row.tid) lastThread = undefined;
      return true;
    },
    addIssues(filePath, issues: ParseIssue[]) {
      if (issues.length === 0) return;
      let room = MAX_ISSUES_PER_FILE - (stmt.countIssues.get(filePath)?.n ?? 0);
      const at = new Date().toISOString();
      for (const i of issues) {
        if (room-- <= 0) break;
        stmt.insertIssue.run(i.path || filePath, i.line ?? null, i.message.slice(0, 500), at);
      }
    },
    clearIssues(filePath) {
      stmt.clearIssues.run(filePath);
    },
    storedTurns(threadId, before, after) {
      const row = lastThread?.id === threadId ? lastThread : stmt.tidOf.get(threadId);
      if (!row) return {};
      return { previous: stmt.turnBefore.get(row.tid, before), next: stmt.turnAfter.get(row.tid, after) };
    },
    setContext(threadId, seq, context, hash) {
      const row = stmt.tidOf.get(threadId);
      const s = row && stmt.stepRow.get(row.tid, seq);
      if (!s) return;
      stmt.deleteFtsOne.run(s.id);
      stmt.setContext.run(context, hash, s.id);
      stmt.insertFts.run(s.id, ...ftsValues(s.kind, s.text, s.idents, context));
    },
  };

  const retriever = createRetriever(db);
  const guard = sqliteGuard(path);

  const ftsCommand = db.prepare<[string, bigint]>(`INSERT INTO steps_fts(steps_fts, rank) VALUES (?, ?)`);
  // FTS5 takes only an integer here, and the driver binds a JavaScript number as a real.
  const ftsConfig = (key: string, value: number) => ftsCommand.run(key, BigInt(value));
  const ftsSetting = (key: keyof typeof FTS_MERGE_DEFAULTS): number => {
    const row = db.prepare<[string], { v: number }>('SELECT v FROM steps_fts_config WHERE k = ?').get(key);
    return row ? Number(row.v) : FTS_MERGE_DEFAULTS[key];
  };
  /** Set while bulk writes run: the merge settings to put back, and the memory map's size. */
  let bulk: { automerge: number; crisismerge: number; mmap: number } | undefined;

  /**
   * One bulk transaction: merges off while it writes, the store's own settings back before it
   * commits. Setting a value first writes out the terms FTS5 has buffered under the values in
   * force, so the batch becomes one new segment with no merge, and nothing changed persists:
   * every commit leaves the settings as they were (a crash mid-run leaves nothing to undo).
   */
  function bulkTransaction<T>(settings: NonNullable<typeof bulk>, fn: () => T): T {
    ftsConfig('automerge', 0);
    ftsConfig('crisismerge', BULK_CRISISMERGE);
    const out = fn();
    ftsConfig('crisismerge', settings.crisismerge);
    ftsConfig('automerge', settings.automerge);
    return out;
  }

  /**
   * Merge the segments bulk writes left into one (what `optimize` does), a few thousand pages
   * per transaction so other writers (a hook saving a session) are not held up for long. FTS5
   * says a merge is complete when a step changes fewer than two rows.
   */
  function settle(): void {
    const changes = db.prepare<[], { n: number }>('SELECT total_changes() AS n');
    for (let pages = -SETTLE_PAGES; ; pages = SETTLE_PAGES) {
      const before = changes.get()!.n;
      guard(() => db.transaction(() => ftsConfig('merge', pages)).immediate());
      if (changes.get()!.n - before < 2) return;
    }
  }
  return {
    path,
    backend: 'sqlite',
    listCursors() {
      // Raw rows: every refresh before a search reads them all, and naming each row's nine
      // values costs as much as reading them (~3.5 ms at 1,000 files).
      return guard(() =>
        (
          db
            .prepare(
              'SELECT path, agent, thread_id, size, mtime_ms, inode, offset, line_no, head_hash FROM files',
            )
            .raw()
            .all() as unknown[][]
        ).map((r) => ({
          path: r[0] as string,
          agent: r[1] as AgentId,
          threadId: (r[2] as string | null) ?? null,
          size: r[3] as number,
          mtimeMs: r[4] as number,
          inode: r[5] as number,
          offset: r[6] as number,
          lineNo: r[7] as number,
          headHash: r[8] as string,
        })),
      );
    },
    externalChanges() {
      return db.pragma('data_version', { simple: true }) as number;
    },
    cursorState(filePath) {
      const r = db
        .prepare<[string], { state: string | null }>('SELECT state FROM files WHERE path = ?')
        .get(filePath);
      return r?.state ?? null;
    },
    threadSource(threadId) {
      return stmt.threadById.get(threadId)?.source;
    },
    write(fn) {
      const settings = bulk;
      return guard(() =>
        db
          .transaction(() => (settings ? bulkTransaction(settings, () => fn(writer)) : fn(writer)))
          .immediate(),
      );
    },
    beginBulkWrites() {
      if (bulk) return;
      bulk = guard(() => ({
        automerge: ftsSetting('automerge'),
        crisismerge: ftsSetting('crisismerge'),
        mmap: db.pragma('mmap_size', { simple: true }) as number,
      }));
      // Merges read every older segment once: through the bounded page cache rather than a map
      // whose touched pages all count as this process's memory (peak RSS at 1M steps).
      db.pragma('mmap_size = 0');
    },
    endBulkWrites(settleNow) {
      const was = bulk;
      if (!was) return;
      bulk = undefined;
      try {
        if (settleNow) settle();
      } finally {
        db.pragma(`mmap_size = ${was.mmap}`);
      }
    },
    candidates(query: ParsedQuery, filters, limit) {
      return guard(() => retriever.candidates(query, filters, limit));
    },
    candidatesAmong(rowids, filters, limit) {
      return guard(() => retriever.candidatesAmong(rowids, filters, limit));
    },
    getThread(threadId) {
      const r = stmt.threadById.get(threadId);
      return r ? toThread(r) : undefined;
    },
    getSteps(threadId, from, to, limit) {
      const t = stmt.threadById.get(threadId);
      if (!t) return [];
      const rows = db
        .prepare<[number, number, number, number], StepRow>(
          'SELECT * FROM steps WHERE tid = ? AND step >= ? AND step <= ? ORDER BY seq LIMIT ?',
        )
        .all(t.tid, from, to, limit);
      // Never half a step: the rest of the parts sharing the last row's number come too.
      const last = rows.at(-1);
      if (last && rows.length === limit)
        rows.push(
          ...db
            .prepare<[number, number, number], StepRow>(
              'SELECT * FROM steps WHERE tid = ? AND step = ? AND seq > ? ORDER BY seq',
            )
            .all(t.tid, last.step, last.seq),
        );
      return rows.map((r) => toStep(r, t.id, t.source));
    },
    stepWindow(threadId, step, before, after) {
      const t = stmt.threadById.get(threadId);
      if (!t) return [];
      // Counted in step numbers, not rows: every part of a step comes with it.
      const nth = (sql: string, offset: number) =>
        db.prepare<[number, number, number], { step: number }>(sql).get(t.tid, step, offset)?.step;
      const rows = (lo: number, hi: number) =>
        db
          .prepare<[number, number, number], StepRow>(
            'SELECT * FROM steps WHERE tid = ? AND step >= ? AND step <= ? ORDER BY seq',
          )
          .all(t.tid, lo, hi);
      const earlier =
        before > 0
          ? rows(
              nth(
                'SELECT step FROM steps WHERE tid = ? AND step < ? GROUP BY step ORDER BY step DESC LIMIT 1 OFFSET ?',
                before - 1,
              ) ?? Number.MIN_SAFE_INTEGER,
              step - 1,
            )
          : [];
      const later =
        after >= 0
          ? rows(
              step,
              nth(
                'SELECT step FROM steps WHERE tid = ? AND step >= ? GROUP BY step ORDER BY step LIMIT 1 OFFSET ?',
                after,
              ) ?? Number.MAX_SAFE_INTEGER,
            )
          : [];
      return [...earlier, ...later].map((r) => toStep(r, t.id, t.source));
    },
    listThreads(filters, limit, offset) {
      return guard(() => {
        const { where, params } = filterSql({
          ...filters,
          roles: undefined,
          since: undefined,
          until: undefined,
        });
        if (filters.since) {
          where.push('t.updated_at >= ?');
          params.push(filters.since);
        }
        if (filters.until) {
          where.push('t.started_at <= ?');
          params.push(filters.until);
        }
        const rows = db
          .prepare(
            `SELECT t.* FROM threads t ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
             ORDER BY t.updated_at DESC NULLS LAST, t.id DESC LIMIT ? OFFSET ?`,
          )
          .all(...params, limit, offset) as ThreadRow[];
        return rows.map(toThread);
      });
    },
    projects(filters) {
      return guard(() => retriever.projects(filters));
    },
    stats(): StoreStats {
      return guard(() => {
        const perAgent: StoreStats['perAgent'] = {};
        const rows = db
          .prepare(
            `SELECT agent, COUNT(*) AS threads, SUM(step_count) AS steps, MAX(updated_at) AS last FROM threads GROUP BY agent`,
          )
          .all() as { agent: string; threads: number; steps: number; last: string | null }[];
        for (const r of rows)
          perAgent[r.agent] = { threads: r.threads, steps: r.steps ?? 0, files: 0, lastUpdated: r.last };
        const files = db.prepare('SELECT agent, COUNT(*) AS n FROM files GROUP BY agent').all() as {
          agent: string;
          n: number;
        }[];
        for (const f of files) {
          perAgent[f.agent] ??= { threads: 0, steps: 0, files: 0, lastUpdated: null };
          perAgent[f.agent].files = f.n;
        }
        const one = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
        let dbBytes = 0;
        for (const suffix of ['', '-wal']) {
          try {
            dbBytes += statSync(path + suffix).size;
          } catch {
            // a missing WAL file is normal
          }
        }
        return {
          threads: one('SELECT COUNT(*) AS n FROM threads'),
          steps: one('SELECT COUNT(*) AS n FROM steps'),
          files: one('SELECT COUNT(*) AS n FROM files'),
          issues: one('SELECT COUNT(*) AS n FROM issues'),
          perAgent,
          dbBytes,
          path,
          backend: 'sqlite' as const,
        };
      });
    },
    listIssues(limit) {
      return db
        .prepare('SELECT path, line, message, at FROM issues ORDER BY id DESC LIMIT ?')
        .all(limit)
        .map((r) => {
          const x = r as { path: string; line: number | null; message: string; at: string };
          return {
            path: x.path,
            line: x.line ?? undefined,
            message: x.message,
            at: x.at,
          } satisfies IssueRecord;
        });
    },
    integrityCheck() {
      return guard(() => {
        const problems: string[] = [];
        const quick = db.pragma('quick_check', { simple: true }) as string;
        if (quick !== 'ok') problems.push(`quick_check: ${quick}`);
        try {
          db.prepare(`INSERT INTO steps_fts(steps_fts, rank) VALUES ('integrity-check', 1)`).run();
        } catch (e) {
          problems.push(`full-text index: ${(e as Error).message}`);
        }
        return problems;
      });
    },
    close() {
      db.close();
    },
  };
}
