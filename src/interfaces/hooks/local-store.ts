/**
 * The local store for the hook runtime, loaded only by the events that need it (a session start
 * whose cached bundle is out of date, and the queue worker): the engine opened on Tapedeck's own
 * config with a short busy timeout, so a store locked by a long write fails fast instead of
 * holding the agent.
 */
import { loadBackends } from '../../app/backends.js';
import { loadConfig } from '../../app/config.js';
import { createEngine, type Engine } from '../../app/engine.js';
import type { BundleKey } from './context-cache.js';
import type { HookSettings } from './settings.js';

export async function openLocalEngine(s: HookSettings, busyTimeoutMs = 500): Promise<Engine> {
  const config = loadConfig({ home: s.tapedeckHome }, s.env);
  await loadBackends({ databaseUrl: config.databaseUrl });
  return createEngine({ ...config, busyTimeoutMs });
}

export interface LocalBundle {
  markdown: string;
  items: number;
}

export async function bundleFrom(engine: Engine, k: BundleKey): Promise<LocalBundle> {
  const b = await engine.contextBundle.build({ agent: k.agent, project: k.project });
  return { markdown: b.markdown, items: b.items.length };
}

export async function buildLocalBundle(s: HookSettings, k: BundleKey): Promise<LocalBundle> {
  const engine = await openLocalEngine(s);
  try {
    return await bundleFrom(engine, k);
  } finally {
    engine.close();
  }
}
