/**
 * Memories seen through a gate: writes need write scope; lists and searches run in a visible
 * space; a memory of another space is NOT_FOUND (also as the target of update, forget, …); and
 * provenance may only cite threads the caller sees.
 */
import { notFound } from '../../core/errors.js';
import { threadRef } from '../../core/memory.js';
import type { MemoryQueryInput, MemoryService } from '../memories.js';
import type { SpaceService } from '../spaces.js';
import { forbidden, type Gate } from './access.js';

export function scopeMemories(
  m: MemoryService,
  gate: Gate,
  deps: { spaces: SpaceService; threadVisible: (id: string) => boolean },
): MemoryService {
  const missing = (ref: string) =>
    notFound(`No memory "${ref}"; find one with \`tapedeck memory search\` or \`tapedeck memory list\``);

  /** The stored id of a visible memory. */
  function own(ref: string): string {
    const id = m.resolveId(ref);
    if (gate.restricted && !gate.sees(m.get(id).space)) throw missing(ref);
    return id;
  }

  function cite(thread: unknown): void {
    if (thread === undefined || thread === null || String(thread).trim() === '') return;
    const id = threadRef(String(thread)).thread;
    if (id && !deps.threadVisible(id))
      throw notFound(`No thread "${id}" for the provenance; list threads with \`tapedeck threads\``);
  }

  /** A query input pinned to a visible space (every space only for unrestricted callers). */
  function query<T extends MemoryQueryInput>(input: T): T {
    if (!gate.restricted) return input;
    let space = input.space;
    if (input.allSpaces) {
      if ((gate.access.spaces?.length ?? 0) > 1)
        throw forbidden(
          `This key sees ${gate.access.spaces!.join(', ')}; name one space instead of every space`,
        );
      space = gate.access.spaces![0];
    }
    const pinned = gate.space(space, () => deps.spaces.resolve({ project: input.project }));
    return { ...input, space: pinned, allSpaces: false, cwd: undefined };
  }

  return {
    resolveId: own,
    get: (ref) => m.get(own(ref)),
    add(input) {
      gate.require('write', 'adding a memory');
      cite(input.thread);
      if (!gate.restricted) return m.add(input);
      const space = gate.space(input.space, () => deps.spaces.resolve({ project: input.project }));
      return m.add({ ...input, space, cwd: undefined });
    },
    update(ref, patch) {
      gate.require('write', 'updating a memory');
      cite(patch.thread);
      return m.update(own(ref), patch);
    },
    supersede(ref, input) {
      gate.require('write', 'superseding a memory');
      cite(input.thread);
      return m.supersede(own(ref), input);
    },
    forget(ref) {
      gate.require('write', 'forgetting a memory');
      return m.forget(own(ref));
    },
    restore(ref) {
      gate.require('write', 'restoring a memory');
      return m.restore(own(ref));
    },
    purge(ref, options) {
      gate.require('admin', 'purging a memory');
      return m.purge(own(ref), options);
    },
    list: (input = {}) => m.list(query(input)),
    search: (q, input = {}) => m.search(q, query(input)),
  };
}
