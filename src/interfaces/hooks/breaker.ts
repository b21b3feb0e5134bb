/**
 * A circuit breaker for the configured server, shared by every hook and the worker through a small
 * state file: after a failure the server is not tried again until `openUntil` (30 s, doubling per
 * consecutive failure up to 10 min), so a dead server costs one timeout, not one per call.
 */
import { errorText, readJson, writeAtomic } from './files.js';

export interface BreakerState {
  url: string;
  failures: number;
  openUntil: number;
  lastError?: string;
  at?: string;
}

const BASE_MS = 30_000;
const MAX_MS = 10 * 60_000;

export function readBreaker(path: string, url: string): BreakerState {
  const s = readJson<BreakerState | null>(path, null);
  return s && s.url === url ? s : { url, failures: 0, openUntil: 0 };
}

export const isOpen = (path: string, url: string, now = Date.now()) => readBreaker(path, url).openUntil > now;

function save(path: string, s: BreakerState): void {
  try {
    writeAtomic(path, JSON.stringify(s));
  } catch {
    // a breaker that cannot be saved only costs retries
  }
}

export function recordFailure(path: string, url: string, error: unknown, now = Date.now()): BreakerState {
  const prev = readBreaker(path, url);
  const failures = prev.failures + 1;
  const s: BreakerState = {
    url,
    failures,
    openUntil: now + Math.min(MAX_MS, BASE_MS * 2 ** (failures - 1)),
    lastError: errorText(error),
    at: new Date(now).toISOString(),
  };
  save(path, s);
  return s;
}

export function recordSuccess(path: string, url: string): void {
  if (readBreaker(path, url).failures > 0) save(path, { url, failures: 0, openUntil: 0 });
}
