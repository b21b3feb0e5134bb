/** Standing rules: few rows (tens), read whole by `resolve`; the scope is split for filtering. */
export const sql = `
CREATE TABLE rules (
  rid         INTEGER PRIMARY KEY,
  id          TEXT NOT NULL UNIQUE,
  title       TEXT NOT NULL,
  body        TEXT NOT NULL,
  scope_kind  TEXT NOT NULL,
  scope_value TEXT,
  enabled     INTEGER NOT NULL DEFAULT 1,
  priority    INTEGER NOT NULL DEFAULT 0,
  created_at  TEXT NOT NULL,
  updated_at  TEXT NOT NULL
);
CREATE INDEX rules_scope ON rules(scope_kind, scope_value);
`;
