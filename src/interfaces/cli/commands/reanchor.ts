/** `tapedeck reanchor [THREAD]`: what a compaction dropped from a session's context. */
import { type GlobalFlags, intOption, openEngine, projectOption } from '../context.js';
import { print, printJson } from '../output.js';
import { refreshQuietly } from './search.js';

export interface ReanchorFlags extends GlobalFlags {
  budget?: string;
  project?: string;
  before?: string;
  index?: boolean;
}

export async function runReanchor(thread: string | undefined, flags: ReanchorFlags): Promise<void> {
  const budget = intOption('budget', flags.budget, 1);
  const before = intOption('before', flags.before, Number.MIN_SAFE_INTEGER);
  const engine = openEngine(flags);
  try {
    if (flags.index !== false) refreshQuietly(engine);
    const r = engine.transcripts.reanchor({
      thread,
      // The current session is the latest one of the project the command runs in.
      project: thread ? undefined : (projectOption(flags.project) ?? process.cwd()),
      budget,
      before,
    });
    if (flags.json) printJson(r);
    else print(r.text.trimEnd());
  } finally {
    engine.close();
  }
}
