/**
 * PostgreSQL schema: API keys, the table of SQLite's migration 008 with the same names and columns.
 * Only the SHA-256 digest of a key is stored (`bytea`, unique: lookups are by digest); `spaces`
 * stays a JSON list in TEXT, empty for every space.
 */
export const sql = `
CREATE TABLE api_keys (
  id           TEXT COLLATE "C" PRIMARY KEY,
  name         TEXT NOT NULL,
  hash         BYTEA NOT NULL UNIQUE,
  prefix       TEXT NOT NULL,
  scope        TEXT NOT NULL CHECK (scope IN ('read', 'write', 'admin')),
  spaces       TEXT NOT NULL DEFAULT '[]',
  created_at   TEXT COLLATE "C" NOT NULL,
  expires_at   TEXT COLLATE "C",
  revoked_at   TEXT,
  last_used_at TEXT
);
`;
