/**
 * A transcript store that shows a caller only the threads of its spaces: other threads do not
 * exist for it (no hits, no steps, not listed, NOT_FOUND by id). Writes are not offered: saved
 * threads are changed through their own service, which the saved-threads gate checks.
 *
 * Search and listings carry the caller's spaces down to the store's query (`SearchFilters.spaces`),
 * so hits are ranked among the caller's own threads however many matches other spaces hold.
 */
import type {
  SearchFilters,
  StoreStats,
  ThreadRecord,
  TranscriptStore,
} from '../../ports/transcript-store.js';
import { forbidden } from './access.js';

/** Threads counted at most for a space-limited caller's stats. */
const MAX_SCAN = 100_000;

/** `store` as a caller who sees only `spaces` sees it. */
export function scopeTranscriptStore(store: TranscriptStore, spaces: readonly string[]): TranscriptStore {
  const allowed = new Set(spaces);
  const sees = (space: string) => allowed.has(space);
  const within = (filters: SearchFilters): SearchFilters => ({ ...filters, spaces });
  const visible = (id: string): ThreadRecord | undefined => {
    const t = store.getThread(id);
    return t && sees(t.space) ? t : undefined;
  };

  /** Visible threads matching `filters`, from `offset`, at most `limit`, in the store's order. */
  const listVisible = (filters: SearchFilters, limit: number, offset: number): ThreadRecord[] =>
    store.listThreads(within(filters), limit, offset);

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
      return store.candidates(query, within(filters), limit);
    },
    candidatesAmong(rowids, filters, limit) {
      if (filters.thread && !visible(filters.thread)) return [];
      return store.candidatesAmong(rowids, within(filters), limit);
    },
    getThread: visible,
    getSteps: (id, from, to, limit) => (visible(id) ? store.getSteps(id, from, to, limit) : []),
    stepWindow: (id, step, before, after) => (visible(id) ? store.stepWindow(id, step, before, after) : []),
    listThreads: listVisible,
    projects: (filters) => store.projects(within(filters)),
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
