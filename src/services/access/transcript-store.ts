/**
 * A transcript store that shows a caller only the threads of its spaces: other threads do not
 * exist for it (no hits, no steps, not listed, NOT_FOUND by id). Writes are not offered: saved
 * threads are changed through their own service, which the saved-threads gate checks.
 *
 * Search over-fetches candidates and drops other spaces' before ranking, so hits stay ranked
 * among the caller's own threads (a space filter inside the store's SQL would be tighter).
 */
import type {
  SearchFilters,
  StoreStats,
  ThreadRecord,
  TranscriptStore,
} from '../../ports/transcript-store.js';
import { forbidden } from './access.js';

/** Candidates fetched per wanted one when other spaces' must be dropped. */
const OVERFETCH = 4;
const MAX_CANDIDATES = 2000;
/** Threads scanned at most when listing or counting through a space filter. */
const MAX_SCAN = 100_000;

export function scopeTranscriptStore(
  store: TranscriptStore,
  sees: (space: string) => boolean,
): TranscriptStore {
  const visible = (id: string): ThreadRecord | undefined => {
    const t = store.getThread(id);
    return t && sees(t.space) ? t : undefined;
  };

  /** Visible threads matching `filters`, from `offset`, at most `limit`, in the store's order. */
  function listVisible(filters: SearchFilters, limit: number, offset: number): ThreadRecord[] {
    const out: ThreadRecord[] = [];
    const page = Math.max(100, limit * 2);
    let skip = offset;
    for (let at = 0; at < MAX_SCAN; at += page) {
      const rows = store.listThreads(filters, page, at);
      for (const r of rows) {
        if (!sees(r.space)) continue;
        if (skip > 0) skip--;
        else out.push(r);
        if (out.length >= limit) return out;
      }
      if (rows.length < page) break;
    }
    return out;
  }

  return {
    path: store.path,
    backend: store.backend,
    listCursors: () => [],
    cursorState: () => null,
    externalChanges: () => store.externalChanges(),
    threadSource: (id) => (visible(id) ? store.threadSource(id) : undefined),
    write() {
      throw forbidden('Transcripts cannot be written through a space-limited view');
    },
    candidates(query, filters, limit) {
      if (filters.thread && !visible(filters.thread))
        return { ...store.candidates(query, filters, 1), candidates: [] };
      const set = store.candidates(query, filters, Math.min(MAX_CANDIDATES, limit * OVERFETCH));
      const spaceOf = new Map<string, boolean>();
      const ok = (id: string) => {
        const known = spaceOf.get(id);
        if (known !== undefined) return known;
        const v = visible(id) !== undefined;
        spaceOf.set(id, v);
        return v;
      };
      return { ...set, candidates: set.candidates.filter((c) => ok(c.threadId)).slice(0, limit) };
    },
    getThread: visible,
    getSteps: (id, from, to, limit) => (visible(id) ? store.getSteps(id, from, to, limit) : []),
    stepWindow: (id, step, before, after) => (visible(id) ? store.stepWindow(id, step, before, after) : []),
    listThreads: listVisible,
    stats(): StoreStats {
      const perAgent: StoreStats['perAgent'] = {};
      let threads = 0;
      let steps = 0;
      for (const t of listVisible({}, MAX_SCAN, 0)) {
        threads++;
        steps += t.stepCount;
        perAgent[t.agent] ??= { threads: 0, steps: 0, files: 0, lastUpdated: null };
        const a = perAgent[t.agent];
        a.threads++;
        a.steps += t.stepCount;
        if (t.updatedAt && (!a.lastUpdated || t.updatedAt > a.lastUpdated)) a.lastUpdated = t.updatedAt;
      }
      return {
        threads,
        steps,
        files: 0,
        issues: 0,
        perAgent,
        dbBytes: 0,
        path: store.path,
        backend: store.backend,
      };
    },
    listIssues: () => [],
    integrityCheck: () => [],
    close() {},
  };
}
