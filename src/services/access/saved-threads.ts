/**
 * Saved threads seen through a gate: imports land in a visible space, and appends, reconciles,
 * handoffs and reads touch only threads the caller sees (others are NOT_FOUND). Thread ids are
 * global, so importing an id another space uses is a CONFLICT that says nothing more about it.
 */
import { notFound, TapedeckError } from '../../core/errors.js';
import type { ThreadRecord } from '../../ports/transcript-store.js';
import type { ImportInput, SavedThreadService, SavedThreadSummary } from '../saved-threads/index.js';
import type { Gate } from './access.js';

const MAX_SCAN = 100_000;

export function scopeSavedThreads(
  s: SavedThreadService,
  gate: Gate,
  deps: { getThread: (id: string) => ThreadRecord | undefined },
): SavedThreadService {
  const visible = (id: string) => {
    const t = deps.getThread(id);
    return !t || gate.sees(t.space);
  };
  function own(id: string): string {
    if (typeof id === 'string' && !visible(id))
      throw notFound(`No saved thread "${id}"; create it with \`tapedeck thread import\``, { thread_id: id });
    return id;
  }
  function placed<T extends ImportInput>(input: T): T {
    if (!gate.restricted) return input;
    if (input.id !== undefined && !visible(String(input.id)))
      throw new TapedeckError('CONFLICT', `The thread id "${input.id}" is taken; choose another id`);
    return { ...input, space: gate.space(input.space, () => 'default') };
  }

  function list(opts: { limit?: number; offset?: number } = {}): SavedThreadSummary[] {
    if (!gate.restricted) return s.list(opts);
    const limit = Math.max(1, Math.min(1000, opts.limit ?? 50));
    let skip = Math.max(0, opts.offset ?? 0);
    const out: SavedThreadSummary[] = [];
    for (let at = 0; at < MAX_SCAN; at += 1000) {
      const page = s.list({ limit: 1000, offset: at });
      for (const t of page) {
        if (!gate.sees(t.space)) continue;
        if (skip > 0) skip--;
        else out.push(t);
        if (out.length >= limit) return out;
      }
      if (page.length < 1000) break;
    }
    return out;
  }

  return {
    import(input) {
      gate.require('write', 'importing a thread');
      return s.import(placed(input));
    },
    save(input) {
      gate.require('write', 'saving a thread');
      return s.save(placed(input));
    },
    append(input) {
      gate.require('write', 'appending to a thread');
      own(input.thread);
      return s.append(input);
    },
    reconcile(input) {
      gate.require('write', 'reconciling a thread');
      own(input.thread);
      return s.reconcile(input);
    },
    handoff(input) {
      gate.require('write', 'a handoff');
      if (typeof input.thread === 'string' && !visible(input.thread))
        throw notFound(`No thread "${input.thread}"; list threads with \`tapedeck threads\``, {
          thread_id: input.thread,
        });
      return s.handoff(input);
    },
    get: (id, opts) => s.get(own(id), opts),
    list,
  };
}
