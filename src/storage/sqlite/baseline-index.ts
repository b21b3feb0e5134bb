/**
 * The eval baselines' index (ports/baseline-index.ts): one FTS5 table in a temp SQLite file,
 * Porter-stemmed unicode61 words, ranked by FTS5's own bm25 — a plain full-text script, nothing
 * of Tapedeck's ranking.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BaselineDoc, BaselineHit, BaselineIndex } from '../../ports/baseline-index.js';
import { loadDriver } from './open.js';

const quote = (w: string) => `"${w.replace(/"/g, '""')}"`;
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A fresh, empty baseline index in its own temp directory (removed by close()). */
export function createSqliteBaselineIndex(): BaselineIndex {
  const dir = mkdtempSync(join(tmpdir(), 'tapedeck-eval-'));
  const Driver = loadDriver();
  const db = new Driver(join(dir, 'baseline.db'));
  // Throwaway data: no journal, no fsync.
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.exec(`CREATE VIRTUAL TABLE docs USING fts5(
    text, thread UNINDEXED, step UNINDEXED, path UNINDEXED, line UNINDEXED, project UNINDEXED,
    tokenize = 'porter unicode61 remove_diacritics 2'
  )`);
  const insert = db.prepare(
    'INSERT INTO docs(text, thread, step, path, line, project) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const addAll = db.transaction((docs: readonly BaselineDoc[]) => {
    for (const d of docs) insert.run(d.text, d.thread, d.step, d.path, d.line, d.project);
  });
  const select = (withProject: boolean) =>
    db.prepare(
      `SELECT thread, step, path, line FROM docs WHERE docs MATCH ?${
        withProject ? " AND (project = ? OR project LIKE ? ESCAPE '\\')" : ''
      } ORDER BY bm25(docs) LIMIT ?`,
    );
  const plain = select(false);
  const scoped = select(true);
  return {
    add: (docs) => addAll(docs),
    search(words, mode, limit, project) {
      if (words.length === 0) return [];
      const match = words.map(quote).join(mode === 'or' ? ' OR ' : ' AND ');
      const rows = (
        project
          ? scoped.all(match, project, `${escapeLike(project.replace(/\/+$/, ''))}/%`, limit)
          : plain.all(match, limit)
      ) as { thread: string; step: number; path: string; line: number }[];
      return rows.map(
        (r): BaselineHit => ({ thread: r.thread, step: r.step, source: { path: r.path, line: r.line } }),
      );
    },
    close() {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
