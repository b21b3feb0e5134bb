/**
 * Skills. `skills` holds the current SKILL.md of each (space, name) as its raw front matter (`head`)
 * and `body`, so a file renders back byte for byte; `skill_versions` keeps every version, the
 * current one included. Checks, outcomes and evidence are the record the trust badge is computed
 * from at read time (never stored). Proposals are improvements waiting for a person to accept.
 * FTS5 follows `skills` through triggers; name words weigh most, then the description, then the body.
 */
export const sql = `
CREATE TABLE skills (
  id          INTEGER PRIMARY KEY,
  space       TEXT NOT NULL DEFAULT 'default',
  name        TEXT NOT NULL,
  description TEXT NOT NULL,
  head        TEXT NOT NULL,
  body        TEXT NOT NULL,
  version     INTEGER NOT NULL,
  stage       TEXT NOT NULL CHECK (stage IN ('draft', 'active', 'archived')),
  created_at  TEXT NOT NULL,
  updated_at  TEXT NOT NULL,
  UNIQUE (space, name)
);

CREATE TABLE skill_versions (
  skill_id    INTEGER NOT NULL REFERENCES skills(id) ON DELETE CASCADE,
  version     INTEGER NOT NULL,
  description TEXT NOT NULL,
  head        TEXT NOT NULL,
  body        TEXT NOT NULL,
  note        TEXT,
  created_at  TEXT NOT NULL,
  PRIMARY KEY (skill_id, version)
) WITHOUT ROWID;

CREATE TABLE skill_evidence (
  skill_id   INTEGER NOT NULL REFERENCES skills(id) ON DELETE CASCADE,
  uri        TEXT NOT NULL,
  note       TEXT,
  created_at TEXT NOT NULL,
  PRIMARY KEY (skill_id, uri)
) WITHOUT ROWID;

CREATE TABLE skill_tests (
  skill_id   INTEGER NOT NULL REFERENCES skills(id) ON DELETE CASCADE,
  name       TEXT NOT NULL,
  check_text TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (skill_id, name)
) WITHOUT ROWID;

CREATE TABLE skill_checks (
  id         INTEGER PRIMARY KEY,
  skill_id   INTEGER NOT NULL REFERENCES skills(id) ON DELETE CASCADE,
  test       TEXT NOT NULL,
  version    INTEGER NOT NULL,
  result     TEXT NOT NULL CHECK (result IN ('passed', 'failed')),
  note       TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX skill_checks_skill ON skill_checks(skill_id, version, test);

CREATE TABLE skill_outcomes (
  id         INTEGER PRIMARY KEY,
  skill_id   INTEGER NOT NULL REFERENCES skills(id) ON DELETE CASCADE,
  version    INTEGER NOT NULL,
  outcome    TEXT NOT NULL CHECK (outcome IN ('completed', 'completed_with_deviation', 'failed', 'abandoned')),
  note       TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX skill_outcomes_skill ON skill_outcomes(skill_id, version);

CREATE TABLE skill_proposals (
  id           TEXT PRIMARY KEY,
  skill_id     INTEGER NOT NULL REFERENCES skills(id) ON DELETE CASCADE,
  base_version INTEGER NOT NULL,
  description  TEXT NOT NULL,
  head         TEXT NOT NULL,
  body         TEXT NOT NULL,
  note         TEXT,
  status       TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'accepted', 'rejected')),
  created_at   TEXT NOT NULL,
  decided_at   TEXT
);
CREATE INDEX skill_proposals_skill ON skill_proposals(skill_id, status);

CREATE VIRTUAL TABLE skills_fts USING fts5(
  name, description, body,
  content = 'skills', content_rowid = 'id',
  tokenize = "porter unicode61 remove_diacritics 2 tokenchars '_'"
);
INSERT INTO skills_fts(skills_fts, rank) VALUES ('rank', 'bm25(6.0, 3.0, 1.0)');
CREATE TRIGGER skills_fts_ai AFTER INSERT ON skills BEGIN
  INSERT INTO skills_fts(rowid, name, description, body) VALUES (new.id, new.name, new.description, new.body);
END;
CREATE TRIGGER skills_fts_ad AFTER DELETE ON skills BEGIN
  INSERT INTO skills_fts(skills_fts, rowid, name, description, body) VALUES ('delete', old.id, old.name, old.description, old.body);
END;
CREATE TRIGGER skills_fts_au AFTER UPDATE OF name, description, body ON skills BEGIN
  INSERT INTO skills_fts(skills_fts, rowid, name, description, body) VALUES ('delete', old.id, old.name, old.description, old.body);
  INSERT INTO skills_fts(rowid, name, description, body) VALUES (new.id, new.name, new.description, new.body);
END;
`;
