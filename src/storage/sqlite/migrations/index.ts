import { sql as m001 } from './001-transcripts.js';

/** Numbered migrations, applied in order; `PRAGMA user_version` records the last one applied. */
export const MIGRATIONS: readonly { version: number; name: string; sql: string }[] = [
  { version: 1, name: 'transcripts', sql: m001 },
];
