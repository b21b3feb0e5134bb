import { type GlobalFlags, intOption, missingStorePath, openEngine, projectOption } from '../context.js';
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
      project: projectOption(flags.project),
      since: flags.since,
      until: flags.until,
      limit: intOption('limit', flags.limit, 1) ?? 20,
      offset: intOption('offset', flags.offset) ?? 0,
    });
    if (flags.json) printJson({ threads });
    else if (missingStorePath(engine)) print(NOTHING_INDEXED);
    // "nothing indexed yet" only when that is true; otherwise the filters matched nothing.
    else if (threads.length === 0 && engine.stats().threads > 0) print('No threads match these filters.');
    else print(formatThreads(threads));
  } finally {
    engine.close();
  }
}
