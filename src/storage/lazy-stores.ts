/** Stores from factories, shared by the backends. */
import type { Stores } from '../ports/stores.js';

export type StoreFactories = {
  [K in keyof Stores]: K extends
    | 'kind'
    | 'location'
    | 'capabilities'
    | 'transcripts'
    | 'transaction'
    | 'writeAll'
    | 'remask'
    | 'close'
    ? Stores[K]
    : () => Stores[K];
};

/** Stores from factories, each built once on first use (a CLI call pays only for what it touches). */
export function lazyStores(f: StoreFactories): Stores {
  const out = {
    kind: f.kind,
    location: f.location,
    capabilities: f.capabilities,
    transcripts: f.transcripts,
    transaction: f.transaction,
    writeAll: f.writeAll,
    remask: f.remask,
    close: f.close,
  } as Stores;
  for (const k of [
    'memories',
    'rules',
    'skills',
    'wiki',
    'saved',
    'workingMemory',
    'contextBundle',
    'keys',
    'catalog',
    'vectors',
  ] as const) {
    let v: unknown;
    Object.defineProperty(out, k, { get: () => (v ??= f[k]()), enumerable: true });
  }
  return out;
}
