/**
 * The engine as one caller may use it (an API key's scope and spaces). REST routes and the MCP
 * server over HTTP both run on this view, so the space and scope rules are enforced in one place
 * (services/access/*) whatever the interface. A local caller (loopback, no key) gets the engine.
 *
 * Services without a gate yet are refused to key holders (default deny): a new service must get
 * one here before a key can reach it.
 */
import { type Access, createGate, forbidden } from '../services/access/access.js';
import { scopeContextBundle, scopeFs, scopeWorkingMemory } from '../services/access/briefings.js';
import { scopeKeys } from '../services/access/keys.js';
import { scopeMemories } from '../services/access/memories.js';
import { scopeRules } from '../services/access/rules.js';
import { scopeSavedThreads } from '../services/access/saved-threads.js';
import { scopeTranscriptStore } from '../services/access/transcript-store.js';
import { scopeSkills, scopeWiki } from '../services/access/wiki-skills.js';
import { createTranscriptService, type TranscriptService } from '../services/transcripts.js';
import type { Engine } from './engine.js';

export type { Access } from '../services/access/access.js';
export { LOCAL_ACCESS, LOCAL_HTTP_ACCESS } from '../services/access/access.js';

/** Every call of every method refused: a service that has no gate for keys yet. */
function refused(message: string): unknown {
  return new Proxy(
    {},
    {
      get: (_t, p) =>
        typeof p === 'symbol'
          ? undefined
          : () => {
              throw forbidden(message);
            },
    },
  );
}

/**
 * The owner's engine without what names files on this machine: skills install/import/export go
 * through their gate (which refuses them without `serverFiles`), export/import are refused whole.
 */
function withoutServerFiles(engine: Engine, access: Access): Engine {
  const gate = createGate(access);
  return {
    ...engine,
    skills: scopeSkills(engine.skills, gate, () => engine.spaces.resolve({})),
    portability: refused(
      'Export and import write folders on the server, so they run only from the CLI',
    ) as Engine['portability'],
  };
}

/** The engine seen by `access`. Cheap: a handful of closures, no statements prepared. */
export function scopeEngine(engine: Engine, access: Access): Engine {
  if (access.principal === 'local') return access.serverFiles ? engine : withoutServerFiles(engine, access);
  const gate = createGate(access);
  const store = gate.access.spaces ? scopeTranscriptStore(engine.store, gate.access.spaces) : engine.store;
  const read = gate.restricted ? createTranscriptService(store, engine.indexer) : engine.transcripts;
  const transcripts: TranscriptService = {
    ...read,
    index(options) {
      gate.require('write', 'indexing');
      return engine.transcripts.index(options);
    },
    // Deleting indexed history is an owner's act: an admin key at least, on a thread it can see.
    forget(threadId) {
      gate.require('admin', 'forgetting a thread');
      read.resolveThreadId(threadId);
      return engine.transcripts.forget(threadId);
    },
  };
  const fallback = () => engine.spaces.resolve({});
  const threadVisible = (id: string) => store.getThread(id) !== undefined;
  const known: Partial<Engine> = {
    config: engine.config,
    adapters: engine.adapters,
    locateEnv: engine.locateEnv,
    spaces: engine.spaces,
    store,
    transcripts,
    indexer: {
      ...engine.indexer,
      run(options) {
        gate.require('write', 'indexing');
        return engine.indexer.run(options);
      },
    },
    locate: () => ({}),
    stats: () => store.stats(),
    close() {},
    memories: scopeMemories(engine.memories, gate, { spaces: engine.spaces, threadVisible }),
    rules: scopeRules(engine.rules, gate, { spaces: engine.spaces }),
    wiki: scopeWiki(engine.wiki, gate, fallback),
    skills: scopeSkills(engine.skills, gate, fallback),
    savedThreads: scopeSavedThreads(engine.savedThreads, gate, {
      getThread: (id) => engine.store.getThread(id),
    }),
    keys: scopeKeys(engine.keys, gate),
    workingMemory: scopeWorkingMemory(engine.workingMemory, gate, fallback),
    contextBundle: scopeContextBundle(engine.contextBundle, gate, fallback),
    fs: scopeFs(engine.fs, gate, fallback),
    // A question's meaning reads only the vectors of the candidates the key's search found.
    meaning: {
      of: (query) => engine.meaning.of(query),
      status() {
        gate.require('admin', 'the embedding status');
        return engine.meaning.status();
      },
      async embed(options) {
        gate.require('admin', 'embedding');
        return engine.meaning.embed(options);
      },
    },
  };
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(engine))
    out[name] =
      name in known
        ? known[name as keyof Engine]
        : typeof value === 'function'
          ? () => {
              throw forbidden(`${name} is not available to API keys`);
            }
          : refused(`${name} is not available to API keys yet; call it from this machine without a key`);
  return out as unknown as Engine;
}
