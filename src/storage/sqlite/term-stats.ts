/**
 * Exact document frequencies of common words, cached. Counting a word's matches is cheap only up
 * to a cap; beyond it the fts5vocab table gives the exact figure but costs milliseconds per
 * lookup on a large index. Words repeat across queries, so the figure is kept in memory and in
 * `term_df`, and refreshed once the index has grown by a quarter since it was taken.
 */
import type { Db } from './open.js';

export interface TermStats {
  /** Steps containing the (Porter-stemmed) term, given the current step count. */
  df(stem: string, total: number): number;
  /** The term's figure when one is already kept and fresh (nothing is counted), else undefined. */
  known(stem: string, total: number): number | undefined;
}

export function createTermStats(db: Db): TermStats {
  const memory = new Map<string, { df: number; total: number }>();
  const vocab = db.prepare<[string], { doc: number }>('SELECT doc FROM steps_vocab WHERE term = ?');
  const read = db.prepare<[string], { df: number; total: number }>(
    'SELECT df, total FROM term_df WHERE term = ?',
  );
  const write = db.prepare('INSERT OR REPLACE INTO term_df (term, df, total) VALUES (?, ?, ?)');
  const fresh = (e: { total: number } | undefined, total: number) => !!e && total <= e.total * 1.25 + 100;

  const known = (stem: string, total: number): number | undefined => {
    const cached = memory.get(stem);
    if (fresh(cached, total)) return cached!.df;
    const stored = read.get(stem);
    if (!fresh(stored, total)) return undefined;
    memory.set(stem, stored!);
    return stored!.df;
  };

  return {
    known,
    df(stem, total) {
      const kept = known(stem, total);
      if (kept !== undefined) return kept;
      const entry = { df: vocab.get(stem)?.doc ?? 0, total };
      memory.set(stem, entry);
      try {
        write.run(stem, entry.df, total);
      } catch {
        // a read-only or busy database just doesn't keep the figure
      }
      return entry.df;
    },
  };
}
