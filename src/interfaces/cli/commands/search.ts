import type { Engine } from '../../../app/engine.js';
import type { FilterInput } from '../../../services/transcripts.js';
import { type GlobalFlags, intOption, missingStorePath, openEngine } from '../context.js';
import { formatSearch } from '../format.js';
import { NOTHING_INDEXED, print, printJson, warn } from '../output.js';

/** Bring the index up to date before answering; a failure only makes results staler. */
export function refreshQuietly(engine: Engine): void {
  try {
    engine.transcripts.index();
  } catch (e) {
    warn(`tapedeck: index not refreshed (${(e as Error).message}); results may be stale`);
  }
}

export interface SearchFlags extends GlobalFlags, Omit<FilterInput, 'agent' | 'role'> {
  agent?: string[];
  role?: string[];
  limit?: string;
  /** Skip the incremental index pass before searching. */
  index?: boolean;
}

export async function runSearch(query: string, flags: SearchFlags): Promise<void> {
  const limit = intOption('limit', flags.limit, 1) ?? 10;
  // --no-index only reads: on a fresh machine it must not create the store
  const engine = openEngine(flags, { read: flags.index === false });
  try {
    if (flags.index !== false) refreshQuietly(engine);
    const result = engine.transcripts.search(query, {
      agent: flags.agent,
      role: flags.role,
      project: flags.project,
      since: flags.since,
      until: flags.until,
      thread: flags.thread,
      limit,
    });
    if (flags.json) printJson(result);
    else if (missingStorePath(engine)) print(NOTHING_INDEXED);
    else print(formatSearch(result));
  } finally {
    engine.close();
  }
}
