/** What every routes module gets from the app: where to register, limits, and shared state. */
import type { Hono } from 'hono';
import type { HttpEnv } from './env.js';
import type { RouteRegistry } from './route.js';

export interface RoutesContext {
  app: Hono<HttpEnv>;
  registry: RouteRegistry;
  /** Bytes accepted in a thread import / append / reconcile body. */
  threadBodyLimit: number;
  /** Bring the transcript index up to date when due (throttled; a no-op when refresh is off). */
  fresh(): void;
  /** Called after an index run so /health can say when the index was last brought up to date. */
  indexed(at: number): void;
  /** `inFlight` and `startedAt` are this process's; `workers` how many processes share the port. */
  state: { startedAt: number; lastIndexAt: number | null; inFlight: number; workers: number };
  log: (line: string) => void;
}
