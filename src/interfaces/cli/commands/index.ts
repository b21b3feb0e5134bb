import type { IndexSummary } from '../../../services/transcripts.js';
import { type GlobalFlags, openEngine } from '../context.js';
import { formatIndexSummary } from '../format.js';
import { print, printJson } from '../output.js';

export interface IndexFlags extends GlobalFlags {
  agent?: string[];
  full?: boolean;
}

/** A progress bar on stderr for long runs, only on a terminal and never with --json. */
async function progressReporter(json: boolean) {
  if (json || !process.stderr.isTTY) return { update: undefined, stop: () => {} };
  const { default: cliProgress } = await import('cli-progress');
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format: 'indexing {bar} {value}/{total} files',
      hideCursor: true,
      clearOnComplete: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  const t0 = Date.now();
  return {
    update: (done: number, total: number) => {
      if (!started && Date.now() - t0 > 400) {
        bar.start(total, done);
        started = true;
      } else if (started) bar.update(done);
    },
    stop: () => started && bar.stop(),
  };
}

export async function runIndex(flags: IndexFlags): Promise<IndexSummary> {
  const engine = openEngine(flags);
  const progress = await progressReporter(!!flags.json);
  try {
    const summary = engine.transcripts.index({
      agents: flags.agent,
      full: flags.full,
      onProgress: progress.update,
    });
    progress.stop();
    if (flags.json) printJson(summary);
    else print(formatIndexSummary(summary));
    return summary;
  } finally {
    progress.stop();
    engine.close();
  }
}
