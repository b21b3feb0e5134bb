/**
 * Test support: the memory service (and the context bundle over the same stores) on a backend,
 * with a clock the test moves.
 */
import type { BackendKind, Stores } from '../../src/ports/stores.js';
import type { TranscriptStore } from '../../src/ports/transcript-store.js';
import { type ContextBundleDeps, createContextBundleService } from '../../src/services/context-bundle.js';
import { createMemoryService, type MemoryService } from '../../src/services/memories.js';
import { createSpaceService, type SpaceSettings } from '../../src/services/spaces.js';
import { openTestStores } from './backends.js';

export const LAB_START = Date.parse('2026-06-01T12:00:00.000Z');
export const DAY = 86_400_000;

export interface BackendMemoryLab {
  backend: BackendKind;
  memories: MemoryService;
  stores: Stores;
  /** The service clock (ms); tests move it forward. */
  clock: { now: number };
  /** A context bundle service over this lab's stores; rules, skills and briefing are supplied. */
  bundle(
    deps?: Partial<Pick<ContextBundleDeps, 'rules' | 'skills' | 'workingMemory'>>,
  ): ReturnType<typeof createContextBundleService>;
  /** Run `fn` in one write transaction (many adds at once). */
  bulk<T>(fn: () => T): T;
  cleanup(): void;
}

const NO_THREADS: Pick<TranscriptStore, 'getThread' | 'getSteps'> = {
  getThread: () => undefined,
  getSteps: () => [],
};

export function memoryLabOn(
  backend: BackendKind,
  settings: SpaceSettings = {},
  threads: Pick<TranscriptStore, 'getThread' | 'getSteps'> = NO_THREADS,
): BackendMemoryLab {
  const opened = openTestStores(backend);
  const { stores } = opened;
  const clock = { now: LAB_START };
  const now = () => clock.now;
  // Counted ids, so two backends running one script make the same ids and break time ties alike.
  let made = 0;
  const newId = () => `${(++made).toString(16).padStart(8, '0')}-0000-4000-8000-000000000000`;
  const spaces = createSpaceService(settings);
  return {
    backend,
    memories: createMemoryService({ store: stores.memories, spaces, threads, now, newId }),
    stores,
    clock,
    bundle: (deps = {}) =>
      createContextBundleService({
        rules: deps.rules ?? { resolve: () => ({ rules: [] }) as never },
        skills: deps.skills ?? { index: () => [] },
        workingMemory: deps.workingMemory ?? {
          read: () => ({ date: new Date(clock.now).toISOString().slice(0, 10), sections: [] }) as never,
        },
        store: stores.contextBundle,
        spaces,
        now,
      }),
    bulk: (fn) => stores.transaction(fn, 'write'),
    cleanup: opened.cleanup,
  };
}
