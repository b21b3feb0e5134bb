import type { IndexSummary } from '../../../services/transcripts.js';
import { type GlobalFlags, openEngine } from '../context.js';
import { formatIndexSummary } from '../format.js';
import { print, printJson } from '../output.js';

export interface IndexFlags extends GlobalFlags {
  agent?: string[];
  full?: boolean;
}

/**
 * A progress bar on stderr for long runs (a first index), only on a terminal and never with
 * --json: files done, the rate in MB/s of transcript read, and the time left at that pace. Once
 * every file is read it says the run is finishing: the last batches are written and a first index
 * merges its full-text index (about 20 s at a million steps), with no files left to count.
 */
async function progressReporter(json: boolean) {
  if (json || !process.stderr.isTTY) return { update: undefined, stop: () => {} };
  const { default: cliProgress } = await import('cli-progress');
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format: 'indexing {bar} {value}/{total} files · {rate} MB/s · {eta_formatted} left{phase}',
      hideCursor: true,
      clearOnComplete: true,
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  const t0 = Date.now();
  return {
    update: (done: number, total: number, _path: string, bytes: number) => {
      const elapsed = Date.now() - t0;
      const rate = {
        rate: (bytes / 1e6 / Math.max(0.001, elapsed / 1000)).toFixed(1),
        phase: done === total ? ' · finishing: last writes, then merging the full-text index' : '',
      };
      if (!started && elapsed > 400) {
        bar.start(total, done, rate);
        started = true;
      } else if (started) bar.update(done, rate);
    },
    stop: () => started && bar.stop(),
  };
}

/** A line saying search by meaning is off, when no step has a vector yet (null otherwise). */
function meaningHint(engine: ReturnType<typeof openEngine>): string | null {
  let status: ReturnType<typeof engine.meaning.status>;
  try {
    status = engine.meaning.status();
  } catch {
    return null; // no model here: nothing to suggest
  }
  if (status.embedded > 0 || status.total === 0) return null;
  return `Search by meaning is off: \`tapedeck embed\` gives the ${status.total} prompts and replies a vector (newest first, resumable), so search also finds answers worded differently.`;
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
    else {
      print(formatIndexSummary(summary));
      const hint = summary.steps.written > 0 ? meaningHint(engine) : null;
      if (hint) print(hint);
    }
    return summary;
  } finally {
    progress.stop();
    engine.close();
  }
}
