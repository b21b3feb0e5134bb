/** Test support: temporary homes laid out like a real user's, and real-shaped transcript lines. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadConfig } from '../../src/app/config.js';
import { createEngine, type Engine } from '../../src/app/engine.js';
import { freshSchema } from './pg.js';

/**
 * TAPEDECK_TEST_BACKEND=postgres puts every temporary home's store in a fresh PostgreSQL schema, so
 * a whole suite re-runs on the team backend (test/postgres/*.test.ts set it, then import a suite).
 */
export const TEST_BACKEND = process.env.TAPEDECK_TEST_BACKEND === 'postgres' ? 'postgres' : 'sqlite';

export interface TempHome {
  /** The fake $HOME agents write under. */
  home: string;
  /** TAPEDECK_HOME for this test. */
  tapedeckHome: string;
  env: Record<string, string>;
  engine(): Engine;
  write(rel: string, text: string): string;
  cleanup(): void;
}

export function tempHome(extraEnv: Record<string, string> = {}): TempHome {
  const root = mkdtempSync(join(tmpdir(), 'tapedeck-test-'));
  const home = join(root, 'home');
  const tapedeckHome = join(root, 'tapedeck');
  mkdirSync(home, { recursive: true });
  const pg =
    TEST_BACKEND === 'postgres' && !('TAPEDECK_DATABASE_URL' in extraEnv) ? freshSchema() : undefined;
  const env: Record<string, string> = {
    HOME: home,
    TAPEDECK_HOME: tapedeckHome,
    PATH: process.env.PATH ?? '',
    ...(pg ? { TAPEDECK_DATABASE_URL: pg.url } : {}),
    ...extraEnv,
  };
  return {
    home,
    tapedeckHome,
    env,
    engine: () => createEngine(loadConfig({}, env)),
    write(rel, text) {
      const p = join(home, rel);
      mkdirSync(dirname(p), { recursive: true });
      writeFileSync(p, text);
      return p;
    },
    cleanup: () => {
      rmSync(root, { recursive: true, force: true });
      pg?.drop();
    },
  };
}

let counter = 0;
const uuid = () => {
  counter++;
  const hex = counter.toString(16).padStart(12, '0');
  return `00000000-0000-4000-8000-${hex}`;
};

/** One Claude Code transcript line (the real shape: uuid chain, cwd, sessionId, message). */
export function claudeLine(
  sessionId: string,
  role: 'user' | 'assistant',
  text: string,
  at = '2026-11-20T10:00:00.000Z',
): string {
  const base = {
    parentUuid: null,
    isSidechain: false,
    userType: 'external',
    cwd: '/home/dev/acme-shop',
    sessionId,
    version: '2.0.14',
    gitBranch: 'main',
    type: role,
    uuid: uuid(),
    timestamp: at,
  };
  const message =
    role === 'user'
      ? { role: 'user', content: text }
      : {
          id: `msg_${uuid().slice(-12)}`,
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [{ type: 'text', text }],
          stop_reason: null,
          usage: { input_tokens: 10, output_tokens: 20 },
        };
  return JSON.stringify({ ...base, message });
}

export const claudePath = (sessionId: string) => `.claude/projects/-home-dev-acme-shop/${sessionId}.jsonl`;
