/**
 * The one place every stored value passes: each store port of a backend, wrapped so that every
 * argument of every method has its strings redacted (core/redact-record.ts) before the backend
 * sees it. Thread titles, parser state, broken-line previews, memory labels, wiki paths, saved
 * messages' external ids, key names — and any field added later — are stored redacted whatever
 * the service or the indexer did before. Reads are redacted alike, so a lookup by a value that
 * was stored redacted (a wiki path holding a token) still finds it.
 *
 * Services still redact what they report on (`redactions` counts); redaction is idempotent, so
 * the second pass here changes nothing they already masked. The one exception is a value marked
 * as redacted when it was built (core/redact-record.ts `markRedacted`: ingest's prepared steps,
 * the indexing hot path), which passes as it is.
 */
import { redactRecord } from '../core/redact-record.js';
import type { Stores } from '../ports/stores.js';

type PortName = Exclude<
  keyof Stores,
  'kind' | 'location' | 'capabilities' | 'transaction' | 'writeAll' | 'remask' | 'close'
>;

/** Every port of Stores; a new one does not compile until it is listed here. */
const PORTS: Record<PortName, true> = {
  transcripts: true,
  memories: true,
  rules: true,
  skills: true,
  wiki: true,
  saved: true,
  workingMemory: true,
  contextBundle: true,
  keys: true,
  catalog: true,
  vectors: true,
};

/** Own and inherited property names of a port (factories build plain objects; classes work too). */
function memberNames(obj: object): string[] {
  const names = new Set<string>();
  for (let o: object | null = obj; o && o !== Object.prototype; o = Object.getPrototypeOf(o))
    for (const n of Object.getOwnPropertyNames(o)) if (n !== 'constructor') names.add(n);
  return [...names];
}

/** A writer handed to a callback (`memories.write(w => …)`): an object with methods. */
const isPortLike = (v: unknown): v is object =>
  typeof v === 'object' &&
  v !== null &&
  !Array.isArray(v) &&
  memberNames(v).some((n) => typeof (v as Record<string, unknown>)[n] === 'function');

function redactArg(arg: unknown): unknown {
  if (typeof arg !== 'function') return redactRecord(arg);
  // A callback gets its writer wrapped too, so writes inside a transaction are covered.
  return (...inner: unknown[]) => arg(...inner.map((x) => (isPortLike(x) ? redactingPort(x) : x)));
}

/** `port` with every method's arguments redacted first. */
export function redactingPort<T extends object>(port: T): T {
  const out: Record<string, unknown> = {};
  const source = port as Record<string, unknown>;
  for (const name of memberNames(port)) {
    const member = source[name];
    if (typeof member !== 'function') {
      Object.defineProperty(out, name, { get: () => source[name], enumerable: true });
      continue;
    }
    out[name] = (...args: unknown[]) => member.apply(port, args.map(redactArg));
  }
  return out as T;
}

/** `stores` with every port redacting what it is given; each port still built on first use. */
export function redactingStores(stores: Stores): Stores {
  const out = {
    kind: stores.kind,
    location: stores.location,
    capabilities: stores.capabilities,
    transaction: <T>(fn: () => T, mode: 'read' | 'write') => stores.transaction(fn, mode),
    writeAll: <T>(fn: () => Promise<T>) => stores.writeAll(fn),
    remask: (apply: boolean) => stores.remask(apply),
    close: () => stores.close(),
  } as Stores;
  for (const name of Object.keys(PORTS) as PortName[]) {
    let wrapped: object | undefined;
    Object.defineProperty(out, name, {
      get: () => (wrapped ??= redactingPort(stores[name] as object)),
      enumerable: true,
    });
  }
  return out;
}
