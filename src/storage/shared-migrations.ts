/**
 * Migrations whose SQL is the same on SQLite and PostgreSQL (adding a plain column, say): written
 * once here, in the one numbered sequence both backends share, and merged into each backend's own
 * list (storage/<backend>/migrations/index.ts) in version order. A migration whose SQL differs
 * between the engines stays in the backend's folder, under the same number on both.
 */

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Plain migrations both backends run as written. */
export const SHARED_MIGRATIONS: readonly Migration[] = [
  // Who to ask about a rule (docs/ARCHITECTURE.md, the worked example).
  { version: 18, name: 'rule-owner', sql: 'ALTER TABLE rules ADD COLUMN owner TEXT;' },
];

/** A backend's own migrations and the shared ones, in version order (the runners apply them so). */
export function withShared(own: readonly Migration[]): readonly Migration[] {
  const all = [...own, ...SHARED_MIGRATIONS].sort((a, b) => a.version - b.version);
  const twice = all.find((m, i) => i > 0 && all[i - 1].version === m.version);
  if (twice) throw new Error(`Migration ${twice.version} is declared twice`);
  return all;
}
