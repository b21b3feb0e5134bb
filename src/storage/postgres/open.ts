/**
 * Opening a PostgreSQL store: connect, pick the schema (`?schema=name` in the URL, default
 * `public`), apply migrations once under an advisory lock (several servers may start at once),
 * and find out what the server can do beyond the contract (pg_trgm, pgvector).
 */
import { TapedeckError } from '../../core/errors.js';
import type { BackendCapabilities } from '../../ports/stores.js';
import { MIGRATIONS } from './migrations/index.js';
import { connectPgSync, type PgSync, type PgSyncOptions } from './sync-client.js';

const MIGRATION_LOCK = 74_200;

export interface PgStore {
  pg: PgSync;
  schema: string;
  capabilities: BackendCapabilities;
}

/** Split Tapedeck's own `schema` parameter off the URL (the driver would not know it). */
export function parseDatabaseUrl(url: string): { url: string; schema: string } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new TapedeckError('INVALID_INPUT', 'The database URL is not a valid postgres:// URL');
  }
  const schema = u.searchParams.get('schema') ?? 'public';
  u.searchParams.delete('schema');
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema))
    throw new TapedeckError(
      'INVALID_INPUT',
      `The schema "${schema}" must be lower-case letters, digits and _`,
    );
  return { url: u.toString(), schema };
}

export function openPg(rawUrl: string, options: PgSyncOptions = {}): PgStore {
  const { url, schema } = parseDatabaseUrl(rawUrl);
  const pg = connectPgSync(url, { ...options, searchPath: schema });
  try {
    const capabilities = prepare(pg, schema);
    migrate(pg);
    return { pg, schema, capabilities };
  } catch (e) {
    pg.close();
    throw e;
  }
}

function prepare(pg: PgSync, schema: string): BackendCapabilities {
  const available = new Set(
    pg
      .query<{ name: string; installed: string | null }>(
        `SELECT name, installed_version AS installed FROM pg_available_extensions WHERE name IN ('pg_trgm', 'vector')`,
      )
      .map((r) => r.name),
  );
  const installed = (name: string) => {
    if (!available.has(name)) return false;
    try {
      // Extensions live in public so every schema on the server can use them.
      pg.transaction(() => {
        pg.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
        pg.exec(`CREATE EXTENSION IF NOT EXISTS ${name === 'vector' ? 'vector' : 'pg_trgm'} SCHEMA public`);
      }, 'read-write');
      return true;
    } catch {
      return false; // no privilege to create it: work without it
    }
  };
  if (schema !== 'public')
    pg.transaction(() => {
      pg.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      pg.exec(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    }, 'read-write');
  return { trigram: installed('pg_trgm'), vectors: installed('vector') };
}

function migrate(pg: PgSync): void {
  const latest = MIGRATIONS.at(-1)?.version ?? 0;
  pg.transaction(() => {
    // Re-read inside the lock: two processes opening a new store must not both migrate it.
    pg.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    pg.exec('CREATE TABLE IF NOT EXISTS tapedeck_schema (version INTEGER NOT NULL)');
    const current =
      pg.one<{ version: number }>('SELECT max(version) AS version FROM tapedeck_schema')?.version ?? 0;
    if (current > latest)
      throw new TapedeckError(
        'STORAGE_UNAVAILABLE',
        `${pg.label} was written by a newer Tapedeck (schema ${current} > ${latest}); upgrade Tapedeck`,
      );
    for (const m of MIGRATIONS) {
      if (m.version <= current) continue;
      pg.exec(m.sql);
      pg.query('INSERT INTO tapedeck_schema (version) VALUES ($1)', [m.version]);
    }
  }, 'read-write');
}
