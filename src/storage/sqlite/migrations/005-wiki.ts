/**
 * Wiki pages: free Markdown under relative paths, per space. `wiki_pages` holds the current text;
 * removal is a tombstone (`deleted_at`) so a page an agent removed by mistake is still in
 * `wiki_versions`, which keeps every written version. FTS5 follows live pages through triggers.
 */
export const sql = `
CREATE TABLE wiki_pages (
  id         INTEGER PRIMARY KEY,
  space      TEXT NOT NULL DEFAULT 'default',
  path       TEXT NOT NULL,
  title      TEXT NOT NULL,
  content    TEXT NOT NULL,
  version    INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  deleted_at TEXT,
  UNIQUE (space, path)
);

CREATE TABLE wiki_versions (
  page_id    INTEGER NOT NULL REFERENCES wiki_pages(id) ON DELETE CASCADE,
  version    INTEGER NOT NULL,
  title      TEXT NOT NULL,
  content    TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (page_id, version)
) WITHOUT ROWID;

CREATE VIRTUAL TABLE wiki_fts USING fts5(
  path, title, content,
  content = 'wiki_pages', content_rowid = 'id',
  tokenize = "porter unicode61 remove_diacritics 2 tokenchars '_'"
);
INSERT INTO wiki_fts(wiki_fts, rank) VALUES ('rank', 'bm25(2.0, 4.0, 1.0)');
CREATE TRIGGER wiki_fts_ai AFTER INSERT ON wiki_pages BEGIN
  INSERT INTO wiki_fts(rowid, path, title, content) VALUES (new.id, new.path, new.title, new.content);
END;
CREATE TRIGGER wiki_fts_ad AFTER DELETE ON wiki_pages BEGIN
  INSERT INTO wiki_fts(wiki_fts, rowid, path, title, content) VALUES ('delete', old.id, old.path, old.title, old.content);
END;
CREATE TRIGGER wiki_fts_au AFTER UPDATE OF path, title, content ON wiki_pages BEGIN
  INSERT INTO wiki_fts(wiki_fts, rowid, path, title, content) VALUES ('delete', old.id, old.path, old.title, old.content);
  INSERT INTO wiki_fts(rowid, path, title, content) VALUES (new.id, new.path, new.title, new.content);
END;
`;
