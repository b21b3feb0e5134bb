/**
 * Opening the SQLite file: the native binding is checked first (a Node upgrade breaks it, and the
 * user deserves a rebuild command, not a stack trace), then WAL, a busy timeout, and migrations.
 */
import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import Database from 'better-sqlite3';
import { TapedeckError } from '../../core/errors.js';
import { OWNER_DIR, OWNER_FILE } from '../../core/owner-only.js';
import { MIGRATIONS } from './migrations/index.js';

export type Db = BetterSqlite3.Database;

const require = createRequire(import.meta.url);

let driver: typeof BetterSqlite3 | undefined;

/**
 * The better-sqlite3 driver, or a STORAGE_UNAVAILABLE error naming the rebuild command. Its
 * JavaScript is part of the CLI bundle (compiled with the bundle's code cache: ~10 small files
 * Node would otherwise compile at every start); the native addon is loaded here from where npm
 * builds it, which also skips the `bindings` package's search. An addon built elsewhere is left
 * to the package itself to find.
 */
export function loadDriver(): typeof BetterSqlite3 {
  if (driver) return driver;
  try {
    let addon: unknown;
    try {
      addon = require(require.resolve('better-sqlite3/build/Release/better_sqlite3.node'));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw e;
      driver = require('better-sqlite3') as typeof BetterSqlite3;
      return driver;
    }
    driver = function Driver(path: string, options?: BetterSqlite3.Options) {
      // The package takes the addon itself as well as its path (its types say only a path).
      return new Database(path, { ...options, nativeBinding: addon as string });
    } as unknown as typeof BetterSqlite3;
    return driver;
  } catch (e) {
    throw new TapedeckError(
      'STORAGE_UNAVAILABLE',
      `The SQLite driver (better-sqlite3) could not be loaded on Node ${process.versions.node}: ${(e as Error).message.replace(/\s*\n\s*/g, ' ').replace(/\.$/, '')}. Rebuild it with: npm rebuild better-sqlite3`,
    );
  }
}

export interface OpenOptions {
  readonly?: boolean;
  /** Milliseconds to wait for another writer before giving up. */
  busyTimeoutMs?: number;
}

export function openDatabase(
  path: string,
  { readonly = false, busyTimeoutMs = 10_000 }: OpenOptions = {},
): Db {
  const Driver = loadDriver();
  let db: Db;
  try {
    if (!readonly && path !== ':memory:') {
      mkdirSync(dirname(path), { recursive: true, mode: OWNER_DIR });
      ownerOnlyDatabase(path);
    }
    db = new Driver(path, { readonly, fileMustExist: readonly });
    db.pragma(`busy_timeout = ${busyTimeoutMs}`);
    if (!readonly) {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
    }
    db.pragma('foreign_keys = ON');
    db.pragma('cache_size = -32000');
    // Searches read pages all over the index (FTS5 segments, the steps they match): mapped, a
    // page costs no read() call and no copy into SQLite's cache (measured: a search's reads 0.74x
    // at 100k steps). Address space only; the kernel's page cache backs it either way.
    db.pragma('mmap_size = 1073741824');
  } catch (e) {
    throw mapSqliteError(e, path);
  }
  if (!readonly) migrate(db, path);
  return db;
}

/**
 * The database file created owner-only before SQLite opens it, and an existing one (and its
 * -wal / -shm, which SQLite creates with the database's mode) tightened: it holds every
 * transcript. Files of another user (a shared store) are left as they are.
 */
function ownerOnlyDatabase(path: string): void {
  try {
    closeSync(openSync(path, 'wx', OWNER_FILE));
  } catch {
    // there already (tightened below), or not creatable here: SQLite's own open says so better
  }
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    const st = statSync(file, { throwIfNoEntry: false });
    if (!st || (st.mode & 0o077) === 0 || st.uid !== process.getuid?.()) continue;
    try {
      chmodSync(file, st.mode & 0o700);
    } catch {
      // not ours to change (a read-only mount): opening still works
    }
  }
}

function migrate(db: Db, path: string): void {
  const latest = MIGRATIONS.at(-1)?.version ?? 0;
  const version = () => db.pragma('user_version', { simple: true }) as number;
  if (version() === latest) return;
  try {
    // Re-read the version inside the write transaction: two processes opening a new database at
    // once must not both apply the migrations.
    db.transaction(() => {
      const current = version();
      if (current > latest) {
        throw new TapedeckError(
          'STORAGE_UNAVAILABLE',
          `${path} was written by a newer Tapedeck (schema ${current} > ${latest}); upgrade Tapedeck`,
        );
      }
      for (const m of MIGRATIONS) {
        if (m.version <= current) continue;
        db.exec(m.sql);
        db.pragma(`user_version = ${m.version}`);
      }
    }).immediate();
  } catch (e) {
    throw mapSqliteError(e, path);
  }
}

/** Run store code with driver errors mapped (mapSqliteError) — every store wraps its calls in one. */
export function sqliteGuard(path: string): <T>(fn: () => T) => T {
  return (fn) => {
    try {
      return fn();
    } catch (e) {
      throw mapSqliteError(e, path);
    }
  };
}

/** Turn driver errors into a TapedeckError a user can act on. */
export function mapSqliteError(e: unknown, path: string): Error {
  if (e instanceof TapedeckError) return e;
  const err = e as { code?: string; message?: string };
  const code = err.code ?? '';
  const msg = err.message ?? String(e);
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED')
    return new TapedeckError(
      'STORAGE_UNAVAILABLE',
      `The database ${path} is locked by another process; try again`,
      {
        sqlite: code,
      },
    );
  if (code === 'SQLITE_READONLY' || code.startsWith('SQLITE_READONLY'))
    return new TapedeckError(
      'STORAGE_UNAVAILABLE',
      `The database ${path} is read-only; check its permissions`,
      {
        sqlite: code,
      },
    );
  if (code === 'SQLITE_CANTOPEN')
    return new TapedeckError('STORAGE_UNAVAILABLE', `Cannot open the database ${path}: ${msg}`, {
      sqlite: code,
    });
  if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB')
    return new TapedeckError(
      'STORAGE_UNAVAILABLE',
      `The database ${path} is damaged or not a database (${msg})`,
      {
        sqlite: code,
      },
    );
  if (code === 'SQLITE_FULL')
    return new TapedeckError('STORAGE_UNAVAILABLE', `The disk holding ${path} is full`, { sqlite: code });
  return e instanceof Error ? e : new Error(msg);
}
