/** Meaning vectors of steps: SQLite's migration 019 (see there), in PostgreSQL's terms. */
export const sql = `
CREATE TABLE step_vectors (
  step_id BIGINT PRIMARY KEY REFERENCES steps(id) ON DELETE CASCADE,
  model   TEXT NOT NULL,
  v       BYTEA NOT NULL
);
CREATE FUNCTION step_vectors_stale() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM step_vectors WHERE step_id = OLD.id;
  RETURN NULL;
END $$;
CREATE TRIGGER step_vectors_stale AFTER UPDATE OF text ON steps
FOR EACH ROW WHEN (OLD.text IS DISTINCT FROM NEW.text) EXECUTE FUNCTION step_vectors_stale();
`;
