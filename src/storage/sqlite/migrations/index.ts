import { type Migration, withShared } from '../../shared-migrations.js';
import { sql as m001 } from './001-transcripts.js';
import { sql as m002 } from './002-memories.js';
import { sql as m003 } from './003-rules.js';
import { sql as m004 } from './004-skills.js';
import { sql as m005 } from './005-wiki.js';
import { sql as m006 } from './006-saved-threads.js';
import { sql as m007 } from './007-working-memory.js';
import { sql as m008 } from './008-api-keys.js';
import { sql as m009 } from './009-neighbours.js';
import { sql as m010 } from './010-source-gone.js';
import { sql as m011 } from './011-fts-hashsize.js';
import { sql as m013 } from './013-neighbour-weight.js';
import { sql as m019 } from './019-step-vectors.js';

/** Numbered migrations, applied in order; `PRAGMA user_version` records the last one applied. */
const OWN: readonly Migration[] = [
  { version: 1, name: 'transcripts', sql: m001 },
  { version: 2, name: 'memories', sql: m002 },
  { version: 3, name: 'rules', sql: m003 },
  { version: 4, name: 'skills', sql: m004 },
  { version: 5, name: 'wiki', sql: m005 },
  { version: 6, name: 'saved-threads', sql: m006 },
  { version: 7, name: 'working-memory', sql: m007 },
  { version: 8, name: 'api-keys', sql: m008 },
  { version: 9, name: 'neighbours', sql: m009 },
  { version: 10, name: 'source-gone', sql: m010 },
  { version: 11, name: 'fts-hashsize', sql: m011 },
  // Why a rule exists or where it came from (docs/ARCHITECTURE.md, the worked example).
  { version: 12, name: 'rule-note', sql: 'ALTER TABLE rules ADD COLUMN note TEXT;' },
  { version: 13, name: 'neighbour-weight', sql: m013 },
  { version: 19, name: 'step-vectors', sql: m019 },
];

/** This backend's migrations and the shared ones (storage/shared-migrations.ts), in version order. */
export const MIGRATIONS = withShared(OWN);
