/**
 * Slowing down key guessing: each client address gets a few free failures, then every further
 * failure locks it out for an exponentially growing time (base·2ⁿ, capped). While locked out,
 * its keyed requests are answered 429 with Retry-After *without* checking the key, so guesses
 * cannot go faster than the lockout allows. Memory is bounded: at most `maxEntries` addresses
 * (the stalest dropped first), each forgotten `forgetMs` after its last failure.
 */
export interface ThrottleOptions {
  /** Failures allowed before lockouts start (default 5). */
  free?: number;
  /** First lockout (default 1 s). */
  baseMs?: number;
  /** Longest lockout (default 60 s). */
  maxMs?: number;
  /** Addresses remembered at most (default 10,000). */
  maxEntries?: number;
  /** A clean slate this long after the last failure (default 15 min). */
  forgetMs?: number;
}

export interface Throttle {
  /** Milliseconds this client must still wait, or 0. */
  wait(client: string): number;
  /** Record a failure; returns the lockout it starts (0 while failures are free). */
  fail(client: string): number;
  readonly size: number;
}

interface Entry {
  failures: number;
  last: number;
  until: number;
}

export function createThrottle(
  {
    free = 5,
    baseMs = 1000,
    maxMs = 60_000,
    maxEntries = 10_000,
    forgetMs = 15 * 60_000,
  }: ThrottleOptions = {},
  now: () => number = Date.now,
): Throttle {
  const entries = new Map<string, Entry>();
  const live = (client: string): Entry | undefined => {
    const e = entries.get(client);
    if (e && now() - e.last > forgetMs) {
      entries.delete(client);
      return undefined;
    }
    return e;
  };
  return {
    wait(client) {
      const e = live(client);
      return e ? Math.max(0, e.until - now()) : 0;
    },
    fail(client) {
      const t = now();
      const e = live(client) ?? { failures: 0, last: t, until: 0 };
      e.failures++;
      e.last = t;
      const over = e.failures - free;
      const lock = over > 0 ? Math.min(maxMs, baseMs * 2 ** Math.min(30, over - 1)) : 0;
      e.until = t + lock;
      entries.delete(client); // re-insert: Map order is then least recently failed first
      entries.set(client, e);
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
      return lock;
    },
    get size() {
      return entries.size;
    },
  };
}
