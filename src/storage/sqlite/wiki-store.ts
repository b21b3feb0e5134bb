/** SQLite implementation of the WikiStore port. */
import type { ParsedQuery } from '../../core/query.js';
import type {
  WikiPageRow,
  WikiReader,
  WikiStore,
  WikiVersionRow,
  WikiWriter,
} from '../../ports/wiki-store.js';
import { anyTermsExpr } from './fts-query.js';
import { lazyStatements } from './lazy-statements.js';
import { type Db, sqliteGuard } from './open.js';

const toPage = (r: Record<string, unknown>): WikiPageRow => ({
  id: r.id as number,
  space: r.space as string,
  path: r.path as string,
  title: r.title as string,
  content: r.content as string,
  version: r.version as number,
  createdAt: r.created_at as string,
  updatedAt: r.updated_at as string,
  deletedAt: (r.deleted_at as string | null) ?? null,
});

const toVersion = (r: Record<string, unknown>): WikiVersionRow => ({
  version: r.version as number,
  title: r.title as string,
  content: r.content as string,
  createdAt: r.created_at as string,
});

/** LIKE pattern for paths under a folder, with LIKE's wildcards escaped. */
const under = (prefix: string) => `${prefix.replace(/[\\%_]/g, '\\$&')}/%`;

export function createSqliteWikiStore(db: Db, path = 'tapedeck.db'): WikiStore {
  const guard = sqliteGuard(path);
  const stmt = lazyStatements(db, {
    get: 'SELECT * FROM wiki_pages WHERE space = ? AND path = ?',
    listAll: 'SELECT * FROM wiki_pages WHERE space = ? AND deleted_at IS NULL ORDER BY path',
    listUnder:
      "SELECT * FROM wiki_pages WHERE space = ? AND deleted_at IS NULL AND path LIKE ? ESCAPE '\\' ORDER BY path",
    version: 'SELECT * FROM wiki_versions WHERE page_id = ? AND version = ?',
    versions: 'SELECT * FROM wiki_versions WHERE page_id = ? ORDER BY version',
    insert: `INSERT INTO wiki_pages (space, path, title, content, version, created_at, updated_at, deleted_at)
       VALUES (@space, @path, @title, @content, @version, @createdAt, @updatedAt, @deletedAt)`,
    update:
      'UPDATE wiki_pages SET title = ?, content = ?, version = ?, updated_at = ?, deleted_at = NULL WHERE id = ?',
    insertVersion:
      'INSERT INTO wiki_versions (page_id, version, title, content, created_at) VALUES (?, ?, ?, ?, ?)',
    markDeleted: 'UPDATE wiki_pages SET deleted_at = ?, updated_at = ? WHERE id = ?',
  });

  const reader: WikiReader = {
    get(space, p) {
      const r = stmt.get.get(space, p) as Record<string, unknown> | undefined;
      return r ? toPage(r) : undefined;
    },
    list(space, prefix) {
      const rows = prefix ? stmt.listUnder.all(space, under(prefix)) : stmt.listAll.all(space);
      return (rows as Record<string, unknown>[]).map(toPage);
    },
    version(pageId, version) {
      const r = stmt.version.get(pageId, version) as Record<string, unknown> | undefined;
      return r ? toVersion(r) : undefined;
    },
    versions: (pageId) => (stmt.versions.all(pageId) as Record<string, unknown>[]).map(toVersion),
    search(query: ParsedQuery, space, prefix, limit) {
      const expr = anyTermsExpr(query);
      if (!expr) return [];
      const rows = db
        .prepare(
          `SELECT p.*, f.rank AS rank, snippet(wiki_fts, 2, '«', '»', '…', 24) AS snip
           FROM wiki_fts f JOIN wiki_pages p ON p.id = f.rowid
           WHERE wiki_fts MATCH ? AND p.space = ? AND p.deleted_at IS NULL
             ${prefix ? "AND p.path LIKE ? ESCAPE '\\'" : ''}
           ORDER BY f.rank LIMIT ?`,
        )
        .all(expr, space, ...(prefix ? [under(prefix)] : []), limit) as Record<string, unknown>[];
      return rows.map((r) => ({ page: toPage(r), bm25: -(r.rank as number), snippet: r.snip as string }));
    },
  };

  const writer: WikiWriter = {
    ...reader,
    insertPage: (row) => Number(stmt.insert.run(row).lastInsertRowid),
    updatePage(id, row) {
      stmt.update.run(row.title, row.content, row.version, row.updatedAt, id);
    },
    insertVersion(pageId, v) {
      stmt.insertVersion.run(pageId, v.version, v.title, v.content, v.createdAt);
    },
    markDeleted(id, at) {
      stmt.markDeleted.run(at, at, id);
    },
  };

  return {
    get: (...a) => guard(() => reader.get(...a)),
    list: (...a) => guard(() => reader.list(...a)),
    version: (...a) => guard(() => reader.version(...a)),
    versions: (...a) => guard(() => reader.versions(...a)),
    search: (...a) => guard(() => reader.search(...a)),
    write: (fn) => guard(() => db.transaction(() => fn(writer)).immediate()),
  };
}
