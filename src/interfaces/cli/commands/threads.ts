import { type GlobalFlags, intOption, missingStorePath, openEngine } from '../context.js';
import { formatThreads } from '../format.js';
import { NOTHING_INDEXED, print, printJson } from '../output.js';

export interface ThreadsFlags extends GlobalFlags {
  agent?: string[];
  project?: string;
  since?: string;
  until?: string;
  limit?: string;
  offset?: string;
}

export async function runThreads(flags: ThreadsFlags): Promise<void> {
  const engine = openEngine(flags);
  try {
    const threads = engine.transcripts.threads({
      agent: flags.agent,
      project: flags.project,
      since: flags.since,
      until: flags.until,
      limit: intOption('limit', flags.limit, 1) ?? 20,
      offset: intOption('offset', flags.offset) ?? 0,
    });
    if (flags.json) printJson({ threads });
    else print(missingStorePath(engine) ? NOTHING_INDEXED : formatThreads(threads));
  } finally {
    engine.close();
  }
}
