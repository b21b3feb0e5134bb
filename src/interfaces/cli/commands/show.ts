import { type GlobalFlags, intOption, openEngine } from '../context.js';
import { formatSteps } from '../format.js';
import { print, printJson } from '../output.js';

export interface ShowFlags extends GlobalFlags {
  step?: string;
  window?: string;
  from?: string;
  limit?: string;
  maxChars?: string;
}

export async function runShow(thread: string, flags: ShowFlags): Promise<void> {
  const engine = openEngine(flags);
  try {
    const step = intOption('step', flags.step, Number.MIN_SAFE_INTEGER);
    const result = engine.transcripts.show({
      thread,
      step,
      window: intOption('window', flags.window) ?? 3,
      from: intOption('from', flags.from, Number.MIN_SAFE_INTEGER) ?? 0,
      limit: intOption('limit', flags.limit, 1) ?? 50,
      maxChars: intOption('max-chars', flags.maxChars, 100) ?? 4000,
    });
    if (flags.json) printJson(result);
    else {
      print(formatSteps(result.thread, result.steps, step));
      if (result.next !== null) print(`\n… more: tapedeck show ${result.thread.id} --from ${result.next}`);
    }
  } finally {
    engine.close();
  }
}
