/**
 * Test support: the backends a contract test runs on. SQLite always; PostgreSQL when
 * TAPEDECK_TEST_DATABASE_URL names a server (`.ci/run` starts one and sets it, with
 * TAPEDECK_REQUIRE_POSTGRES=1 so a missing server fails instead of skipping). Each PostgreSQL store
 * gets a fresh schema, dropped at cleanup.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import type { Engine } from '../../src/app/engine.js';
import type { BackendKind, Stores } from '../../src/ports/stores.js';
import { openPostgresStores } from '../../src/storage/postgres/stores.js';
import { openSqliteStores } from '../../src/storage/sqlite/stores.js';
import { claudeLine, claudePath, type TempHome, tempHome } from './home.js';
import { freshSchema, PG_URL } from './pg.js';

export { freshSchema, PG_URL } from './pg.js';

export interface BackendCase {
  name: BackendKind;
  /** Why the case is skipped here (node:test `skip`), or false. */
  skip: string | false;
}

export const BACKENDS: readonly BackendCase[] = [
  { name: 'sqlite', skip: false },
  {
    name: 'postgres',
    skip: PG_URL ? false : 'TAPEDECK_TEST_DATABASE_URL is not set (CI sets it; see CONTRIBUTING.md)',
  },
];

export const POSTGRES: BackendCase = BACKENDS[1]!;

/** Fresh, empty stores on a backend. */
export function openTestStores(backend: BackendKind): { stores: Stores; url?: string; cleanup(): void } {
  if (backend === 'postgres') {
    const s = freshSchema();
    const stores = openPostgresStores(s.url);
    return {
      stores,
      url: s.url,
      cleanup() {
        stores.close();
        s.drop();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'tapedeck-stores-'));
  const stores = openSqliteStores(join(dir, 'tapedeck.db'));
  return {
    stores,
    cleanup() {
      stores.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A temporary home (see home.ts) whose engine and CLI use `backend` (TAPEDECK_DATABASE_URL for PostgreSQL). */
export function backendHome(backend: BackendKind, extraEnv: Record<string, string> = {}): TempHome {
  if (backend === 'sqlite') return tempHome({ TAPEDECK_DATABASE_URL: '', ...extraEnv });
  const s = freshSchema();
  const h = tempHome({ TAPEDECK_DATABASE_URL: s.url, ...extraEnv });
  return {
    ...h,
    cleanup() {
      h.cleanup();
      s.drop();
    },
  };
}

/**
 * A home on `backend` holding one Claude Code session of `turns` (user, then assistant, in turn),
 * indexed; its engine and the home go when the test ends. Returns the session's thread id too.
 */
export function indexedHome(
  t: TestContext,
  backend: BackendKind,
  sessionId: string,
  turns: string[],
): { h: TempHome; engine: Engine; thread: string } {
  const h = backendHome(backend);
  const lines = turns.map((text, i) => claudeLine(sessionId, i % 2 ? 'assistant' : 'user', text));
  h.write(claudePath(sessionId), `${lines.join('\n')}\n`);
  const engine = h.engine();
  t.after(() => {
    engine.close();
    h.cleanup();
  });
  engine.transcripts.index();
  return { h, engine, thread: `claude-code:${sessionId}` };
}
