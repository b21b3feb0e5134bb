/**
 * The last context bundle built from the local store, per agent, project and space, so a session
 * start answers in milliseconds without opening the store. An entry is served only while it is
 * exact: built today and after the last change to the database (its file and WAL modification
 * times). Anything written since (a memory, a rule, an indexed session) makes the next start build
 * a fresh one. The queue worker refreshes the entry after each save it makes.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { fnv1a } from '../../core/hash.js';
import { readJson, writeAtomic } from './files.js';
import type { HookSettings } from './settings.js';

export interface CachedBundle {
  key: string;
  day: string;
  builtAt: number;
  markdown: string;
  items: number;
}

export interface BundleKey {
  agent: string;
  project?: string;
}

const localDay = (t: number) => {
  const d = new Date(t);
  return `${d.getFullYear()}-${d.getMonth() + 1}-${d.getDate()}`;
};

const keyOf = (s: HookSettings, k: BundleKey) =>
  `${k.agent}|${k.project ?? ''}|${s.env.TAPEDECK_SPACE ?? ''}`;
const pathOf = (s: HookSettings, key: string) =>
  join(s.paths.contextCache, `${fnv1a(key).toString(16)}.json`);

export const dbPathOf = (s: HookSettings) => s.env.TAPEDECK_DB ?? join(s.tapedeckHome, 'tapedeck.db');

/** The latest modification time of the database and its WAL (0 when there is none). */
export function dbChangedAt(s: HookSettings): number {
  const db = dbPathOf(s);
  let t = 0;
  for (const p of [db, `${db}-wal`]) t = Math.max(t, statSync(p, { throwIfNoEntry: false })?.mtimeMs ?? 0);
  return t;
}

export function readCached(s: HookSettings, k: BundleKey): { entry: CachedBundle; fresh: boolean } | null {
  const key = keyOf(s, k);
  const entry = readJson<CachedBundle | null>(pathOf(s, key), null);
  if (!entry || entry.key !== key || typeof entry.markdown !== 'string') return null;
  const now = Date.now();
  const fresh = entry.day === localDay(now) && entry.builtAt > dbChangedAt(s);
  return { entry, fresh };
}

/** Store a bundle; call after the store is closed, so its own writes are older than the entry. */
export function writeCached(s: HookSettings, k: BundleKey, markdown: string, items: number): void {
  const key = keyOf(s, k);
  const builtAt = Date.now();
  writeAtomic(pathOf(s, key), JSON.stringify({ key, day: localDay(builtAt), builtAt, markdown, items }));
}
