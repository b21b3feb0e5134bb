/**
 * API keys for the HTTP server: only a SHA-256 digest of each key is stored (the key is shown
 * once, at creation); `spaces` is a JSON list, empty for every space.
 */
export const sql = `
CREATE TABLE api_keys (
  id           TEXT PRIMARY KEY,
  name         TEXT NOT NULL,
  hash         BLOB NOT NULL UNIQUE,
  prefix       TEXT NOT NULL,
  scope        TEXT NOT NULL CHECK (scope IN ('read', 'write', 'admin')),
  spaces       TEXT NOT NULL DEFAULT '[]',
  created_at   TEXT NOT NULL,
  expires_at   TEXT,
  revoked_at   TEXT,
  last_used_at TEXT
);
`;
