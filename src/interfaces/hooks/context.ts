/**
 * Session start: the context bundle for the agent and project, from the first tier that answers —
 * the configured server (GET /v1/context, short timeout, skipped while its circuit is open), else
 * the local store (an exact cached bundle when nothing changed since it was built, else built now
 * with the store opened lazily), else the last cached bundle of the day, else nothing.
 */
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fnv1a } from '../../core/hash.js';
import { OWNER_DIR } from '../../core/owner-only.js';
import { readCached, writeCached } from './context-cache.js';
import type { HookInput } from './hosts.js';
import type { Logger } from './log.js';
import type { HookSettings } from './settings.js';

export interface ContextResult {
  /** The text to inject (wrapped), or undefined when there is nothing to say. */
  text?: string;
  origin: 'server' | 'cache' | 'local' | 'stale-cache' | 'none';
}

/** Time the local build needs at least; with less left, a stale entry or nothing is served. */
const LOCAL_BUILD_MS = 400;

export function wrap(markdown: string, origin: string): string {
  return [
    `<tapedeck_context origin="${origin}">`,
    markdown.trim(),
    '',
    "Tapedeck is this user's memory. Search past sessions and memories with its MCP tools " +
      '(recall, then read a hit) before redoing work; save what matters with remember.',
    '</tapedeck_context>',
  ].join('\n');
}

async function fromServer(s: HookSettings, input: HookInput, timeoutMs: number) {
  const { apiRequest, serverError } = await import('./client.js');
  const q = new URLSearchParams({ agent: input.agent });
  if (input.cwd) q.set('project', input.cwd);
  if (s.env.TAPEDECK_SPACE) q.set('space', s.env.TAPEDECK_SPACE);
  const path = `/v1/context?${q}`;
  const r = await apiRequest(s, 'GET', path, { timeoutMs });
  if (r.status !== 200) throw serverError('GET', '/v1/context', r);
  return {
    markdown: String(r.body?.markdown ?? ''),
    items: Array.isArray(r.body?.items) ? r.body.items.length : 0,
  };
}

export async function contextFor(
  s: HookSettings,
  input: HookInput,
  log: Logger,
  remainingMs: () => number,
): Promise<ContextResult> {
  // Server modules load only when a server is configured: a local start stays lean.
  const breaker = s.apiUrl ? await import('./breaker.js') : undefined;
  if (s.apiUrl && breaker && !breaker.isOpen(s.paths.breaker, s.apiUrl)) {
    const { isOpen: _open, recordFailure, recordSuccess } = breaker;
    try {
      const b = await fromServer(s, input, Math.min(1500, Math.max(200, remainingMs() - LOCAL_BUILD_MS)));
      recordSuccess(s.paths.breaker, s.apiUrl);
      return b.items > 0 ? { text: wrap(b.markdown, 'server'), origin: 'server' } : { origin: 'server' };
    } catch (e) {
      const st = recordFailure(s.paths.breaker, s.apiUrl, e);
      log('warn', `server ${s.apiUrl} did not give the context (${st.lastError}); using the local store`);
    }
  }
  const key = { agent: input.agent, project: input.cwd };
  const cached = readCached(s, key);
  if (cached?.fresh)
    return cached.entry.items > 0
      ? { text: wrap(cached.entry.markdown, 'local'), origin: 'cache' }
      : { origin: 'cache' };
  if (remainingMs() > LOCAL_BUILD_MS) {
    try {
      const { buildLocalBundle } = await import('./local-store.js');
      const b = await buildLocalBundle(s, key);
      writeCached(s, key, b.markdown, b.items);
      return b.items > 0 ? { text: wrap(b.markdown, 'local'), origin: 'local' } : { origin: 'local' };
    } catch (e) {
      log('error', `local store did not give the context: ${(e as Error).message}`);
    }
  }
  if (cached && cached.entry.items > 0)
    return { text: wrap(cached.entry.markdown, 'local'), origin: 'stale-cache' };
  return { origin: 'none' };
}

/**
 * Antigravity's first invocation, injected once even when the hook is installed in two places that
 * both fire (the plugin's hooks.json and the reliable top-level one): the first process to create
 * the conversation's marker injects, the other sees a marker under a minute old and does not. An
 * older marker is a new start of the conversation (an ephemeral message does not persist), so it
 * injects again.
 */
export function firstToInject(s: HookSettings, conversation: string): boolean {
  const dir = s.paths.injected;
  mkdirSync(dir, { recursive: true, mode: OWNER_DIR });
  const marker = join(
    dir,
    `${fnv1a(conversation).toString(16)}-${conversation.replace(/[^A-Za-z0-9-]/g, '').slice(0, 60)}`,
  );
  if (Math.random() < 0.05) prune(dir);
  try {
    mkdirSync(marker, { mode: OWNER_DIR });
    return true;
  } catch {
    const age = Date.now() - (statSync(marker, { throwIfNoEntry: false })?.mtimeMs ?? 0);
    if (age < DOUBLE_FIRE_MS) return false;
  }
  rmSync(marker, { recursive: true, force: true });
  try {
    mkdirSync(marker, { mode: OWNER_DIR });
    return true;
  } catch {
    return false;
  }
}

const DOUBLE_FIRE_MS = 60_000;

function prune(dir: string): void {
  const old = Date.now() - 2 * 86_400_000;
  for (const f of readdirSync(dir)) {
    const p = join(dir, f);
    if ((statSync(p, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) < old)
      rmSync(p, { recursive: true, force: true });
  }
}
