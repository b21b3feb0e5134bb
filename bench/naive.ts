/**
 * The baseline peers use: one plain FTS5 table of step texts, queried by ANDing every word of the
 * question (what the "search your conversations" FTS5 servers do).
 */
import Database from 'better-sqlite3';

export interface NaiveIndex {
  search(question: string, limit: number): { path: string; line: number }[];
  close(): void;
}

export function buildNaive(tapedeckDb: string, naiveDb: string): { index: NaiveIndex; ms: number } {
  const t = performance.now();
  const db = new Database(naiveDb);
  db.pragma('journal_mode = WAL');
  db.exec(
    `DROP TABLE IF EXISTS naive; CREATE VIRTUAL TABLE naive USING fts5(text, path UNINDEXED, line UNINDEXED);`,
  );
  db.exec(`ATTACH DATABASE '${tapedeckDb.replace(/'/g, "''")}' AS h`);
  db.exec(
    `INSERT INTO naive (text, path, line) SELECT s.text, t.source, s.line FROM h.steps s JOIN h.threads t ON t.tid = s.tid`,
  );
  db.exec('DETACH DATABASE h');
  const ms = performance.now() - t;
  const stmt = db.prepare('SELECT path, line FROM naive WHERE naive MATCH ? ORDER BY rank LIMIT ?');
  return {
    ms,
    index: {
      search(question, limit) {
        const words = question.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
        if (words.length === 0) return [];
        const expr = words.map((w) => `"${w}"`).join(' AND ');
        return stmt.all(expr, limit) as { path: string; line: number }[];
      },
      close: () => db.close(),
    },
  };
}
