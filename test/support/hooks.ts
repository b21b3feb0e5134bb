/**
 * Test support for hooks: a temporary user whose home path has spaces and non-ASCII letters, each
 * agent's recorded session placed where the agent writes it, the recorded host payloads
 * (test/fixtures/hooks/<agent>/<event>.json) pointed at that home, and `tapedeck hook` run as the
 * host runs it: a child process with the payload on stdin.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { BIN } from './cli.js';

const ROOT = join(import.meta.dirname, '..', '..');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'hooks');
const SOURCES = join(ROOT, 'src', 'sources');
const RECORDED_HOME = '/home/dev';

export type Agent = 'antigravity' | 'claude-code' | 'codex' | 'gemini-cli';
export const AGENTS: Agent[] = ['antigravity', 'claude-code', 'codex', 'gemini-cli'];

/** Each agent's recorded session: the source fixture and where the agent keeps it under $HOME. */
export const SESSIONS: Record<Agent, { id: string; from: string; to: string; word: string }> = {
  antigravity: {
    id: '6b1e0f3a-2c4d-4e8f-9a17-53d2c8e4b901',
    from: 'antigravity/fixtures/brain/6b1e0f3a-2c4d-4e8f-9a17-53d2c8e4b901/.system_generated/logs/transcript_full.jsonl',
    to: '.gemini/antigravity/brain/6b1e0f3a-2c4d-4e8f-9a17-53d2c8e4b901/.system_generated/logs/transcript_full.jsonl',
    word: 'idempotent',
  },
  'claude-code': {
    id: '4f1c2d3e-8a9b-4c5d-9e0f-1a2b3c4d5e6f',
    from: 'claude-code/fixtures/4f1c2d3e-8a9b-4c5d-9e0f-1a2b3c4d5e6f.jsonl',
    to: '.claude/projects/-home-dev-acme-shop/4f1c2d3e-8a9b-4c5d-9e0f-1a2b3c4d5e6f.jsonl',
    word: 'OFFSET',
  },
  codex: {
    id: '0199a8f2-3c1d-7b42-9e5f-2a6c8d4e1f37',
    from: 'codex/fixtures/rollout-2025-10-02T14-21-07-0199a8f2-3c1d-7b42-9e5f-2a6c8d4e1f37.jsonl',
    to: '.codex/sessions/2025/10/02/rollout-2025-10-02T14-21-07-0199a8f2-3c1d-7b42-9e5f-2a6c8d4e1f37.jsonl',
    word: 'quantity',
  },
  'gemini-cli': {
    id: '5f0c2a91-7b3e-4d1a-9c55-0e6f3b8a2d17',
    from: 'gemini-cli/fixtures/session-2025-10-21T08-42-5f0c2a91.json',
    to: '.gemini/tmp/3f1d5e9a4c2b7e8f0a6d1c3b5e7f9a2c4d6e8f0a1b3c5d7e9f1a3b5c7d9e1f3a/chats/session-2025-10-21T08-42-5f0c2a91.json',
    word: 'lazy',
  },
};

export interface HookWorld {
  root: string;
  home: string;
  tapedeckHome: string;
  project: string;
  env: Record<string, string>;
  /** Copy an agent's recorded session into the home; returns its path. */
  place(agent: Agent): string;
  /** The recorded payload, its /home/dev paths moved into this home. */
  payload(agent: Agent, event: string): Record<string, unknown>;
  cleanup(): Promise<void>;
}

function relocate(v: unknown, home: string): unknown {
  if (typeof v === 'string') return v.startsWith(RECORDED_HOME) ? home + v.slice(RECORDED_HOME.length) : v;
  if (Array.isArray(v)) return v.map((x) => relocate(x, home));
  if (v && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, relocate(x, home)]));
  return v;
}

export function hookWorld(extraEnv: Record<string, string> = {}): HookWorld {
  const root = mkdtempSync(join(tmpdir(), 'tapedeck hooks é-'));
  const home = join(root, 'Jürgen Ölçü home');
  const tapedeckHome = join(root, 'tapedeck data ü');
  const project = join(home, 'acme-shop');
  mkdirSync(project, { recursive: true });
  const env: Record<string, string> = {
    HOME: home,
    TAPEDECK_HOME: tapedeckHome,
    PATH: process.env.PATH ?? '',
    ...extraEnv,
  };
  return {
    root,
    home,
    tapedeckHome,
    project,
    env,
    place(agent) {
      const s = SESSIONS[agent];
      const to = join(home, s.to);
      mkdirSync(dirname(to), { recursive: true });
      copyFileSync(join(SOURCES, s.from), to);
      return to;
    },
    payload(agent, event) {
      const p = JSON.parse(readFileSync(join(FIXTURES, agent, `${event}.json`), 'utf8'));
      return relocate(p, home) as Record<string, unknown>;
    },
    async cleanup() {
      await waitIdle(tapedeckHome);
      rmSync(root, { recursive: true, force: true });
    },
  };
}

export interface HookRun {
  status: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  // biome-ignore lint/suspicious/noExplicitAny: the host's answer, checked field by field
  json: () => any;
}

/** Run `tapedeck hook <agent> <event>` with `input` on stdin (a string as is, an object as JSON). */
export function runHook(
  agent: string,
  event: string,
  input: unknown,
  env: Record<string, string>,
  { args = [] as string[] } = {},
): Promise<HookRun> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const child = spawn(process.execPath, [BIN, 'hook', agent, event, ...args], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (status) =>
      resolve({ status, stdout, stderr, ms: performance.now() - t, json: () => JSON.parse(stdout) }),
    );
    child.stdin.on('error', () => {}); // a hook may exit before reading everything
    child.stdin.end(typeof input === 'string' ? input : JSON.stringify(input));
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Wait until no queue worker runs and nothing due is queued (detached workers finish). */
export async function waitIdle(tapedeckHome: string, timeoutMs = 30_000): Promise<void> {
  const queue = join(tapedeckHome, 'queue');
  const t = Date.now();
  await sleep(50);
  while (Date.now() - t < timeoutMs) {
    const busy = existsSync(join(queue, '.lock'));
    let due = false;
    try {
      for (const f of readdirSync(queue).filter((x) => x.endsWith('.json'))) {
        const item = JSON.parse(readFileSync(join(queue, f), 'utf8'));
        if (!item.notBefore || item.notBefore <= Date.now()) due = true;
      }
    } catch {
      // no queue yet
    }
    if (!busy && !due) return;
    await sleep(50);
  }
}

/** The worker's record of saved sessions. */
export function savedSessions(
  tapedeckHome: string,
): Record<string, { target: string; how: string; messages?: number }> {
  try {
    return JSON.parse(readFileSync(join(tapedeckHome, 'hooks', 'state.json'), 'utf8')).sessions ?? {};
  } catch {
    return {};
  }
}

/** Wait until the session is recorded as saved. */
export async function waitSaved(tapedeckHome: string, thread: string, timeoutMs = 30_000) {
  const t = Date.now();
  while (Date.now() - t < timeoutMs) {
    const s = savedSessions(tapedeckHome)[thread];
    if (s) return s;
    await sleep(50);
  }
  throw new Error(`${thread} was not saved within ${timeoutMs} ms; hooks.log:\n${readLog(tapedeckHome)}`);
}

export const readLog = (tapedeckHome: string) => {
  try {
    return readFileSync(join(tapedeckHome, 'hooks.log'), 'utf8');
  } catch {
    return '(no hooks.log)';
  }
};
