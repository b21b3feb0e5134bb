/**
 * A small world for working-memory and context-bundle tests: Claude Code sessions in two projects
 * (real transcript shape), memories, rules and skills, on a temp home; plus a working-memory
 * service over the same database with a clock the test controls.
 */
import { loadConfig } from '../../src/app/config.js';
import { createEngine, type Engine } from '../../src/app/engine.js';
import type { BackendKind } from '../../src/ports/stores.js';
import { createSpaceService } from '../../src/services/spaces.js';
import {
  createWorkingMemoryService,
  type WorkingMemoryService,
} from '../../src/services/working-memory/index.js';
import { backendHome } from './backends.js';
import { type TempHome, tempHome } from './home.js';

let seq = 0;

/** One Claude Code session file: `turns` are [role, text, minutes ago]. */
export function writeSession(
  h: TempHome,
  sessionId: string,
  cwd: string,
  turns: [role: 'user' | 'assistant', text: string, minutesAgo: number][],
  now = Date.now(),
): void {
  const lines = turns.map(([role, text, ago]) => {
    const uuid = `00000000-0000-4000-9000-${(++seq).toString(16).padStart(12, '0')}`;
    const message =
      role === 'user'
        ? { role: 'user', content: text }
        : {
            id: `msg_${seq}`,
            type: 'message',
            role: 'assistant',
            model: 'claude-sonnet-4-5',
            content: [{ type: 'text', text }],
            stop_reason: null,
            usage: { input_tokens: 1, output_tokens: 1 },
          };
    return JSON.stringify({
      parentUuid: null,
      isSidechain: false,
      userType: 'external',
      cwd,
      sessionId,
      version: '2.0.14',
      gitBranch: 'main',
      type: role,
      uuid,
      timestamp: new Date(now - ago * 60_000).toISOString(),
      message,
    });
  });
  h.write(`.claude/projects/${cwd.replace(/\//g, '-')}/${sessionId}.jsonl`, `${lines.join('\n')}\n`);
}

export const SHOP = '/home/dev/acme-shop';
export const BLOG = '/home/dev/blog';

/** Two sessions in the shop, one in the blog; indexed. */
export function seedSessions(h: TempHome, engine: Engine): void {
  writeSession(h, 'shop-1', SHOP, [
    ['user', 'Fix the checkout rounding bug in cart totals', 300],
    [
      'assistant',
      'We decided to store money as integer cents instead of floats. Done: the totals are fixed.',
      299,
    ],
  ]);
  writeSession(h, 'shop-2', SHOP, [
    ['user', 'Add a test for the VAT edge case', 60],
    ['assistant', 'Looking at the VAT code now.', 59],
  ]);
  writeSession(h, 'blog-1', BLOG, [
    ['user', 'Write the draft about Rust lifetimes', 120],
    [
      'assistant',
      "Let's use the borrow checker example from the book. The draft is written and committed.",
      119,
    ],
  ]);
  engine.transcripts.index();
}

/**
 * A start for a test clock that stays inside one local day for the next `minutes`: the briefing is
 * per day, so a test that moves the clock forward must not cross midnight when it runs late at night.
 */
export function sameDayStart(minutes: number, now = Date.now()): number {
  const midnight = new Date(now);
  midnight.setHours(24, 0, 0, 0);
  return Math.min(now, midnight.getTime() - minutes * 60_000);
}

export interface WmWorld {
  h: TempHome;
  engine: Engine;
  /** A working-memory service over the engine's database whose clock is `clock.now`. */
  wm: WorkingMemoryService;
  clock: { now: number };
  close(): void;
}

/**
 * A temporary home with `config` and a working-memory service whose clock starts at `now`. On
 * `backend` when given (the contract suite); else the home's default (TAPEDECK_TEST_BACKEND).
 */
export function wmWorld(
  env: Record<string, string> = {},
  config?: Record<string, unknown>,
  backend?: BackendKind,
  now = Date.now(),
): WmWorld {
  const h = backend ? backendHome(backend, env) : tempHome(env);
  if (config) h.write('../tapedeck/config.json', JSON.stringify(config));
  const engine = createEngine(loadConfig({}, h.env));
  const clock = { now };
  const wm = createWorkingMemoryService({
    store: engine.stores.workingMemory,
    memories: engine.memories,
    threads: engine.store,
    spaces: createSpaceService({ envSpace: engine.config.space, mappings: engine.config.spaces }),
    projectSpaces: engine.config.spaces,
    home: engine.config.home,
    now: () => clock.now,
  });
  return {
    h,
    engine,
    wm,
    clock,
    close() {
      engine.close();
      h.cleanup();
    },
  };
}
