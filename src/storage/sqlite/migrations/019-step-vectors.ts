/**
 * Meaning vectors of steps (ports/step-vectors.ts): one int8 vector per step and model. A vector
 * goes with its step (the foreign key; the store turns foreign keys on) and when the step's text
 * changes (a later redaction, a rewritten line): it was made from the old text.
 */
export const sql = `
CREATE TABLE step_vectors (
  step_id INTEGER PRIMARY KEY REFERENCES steps(id) ON DELETE CASCADE,
  model   TEXT NOT NULL,
  v       BLOB NOT NULL
);
CREATE TRIGGER step_vectors_stale AFTER UPDATE OF text ON steps
WHEN old.text IS NOT new.text BEGIN
  DELETE FROM step_vectors WHERE step_id = old.id;
END;
`;
