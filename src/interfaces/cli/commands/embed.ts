import type { EmbedProgress } from '../../../services/meaning.js';
import { type GlobalFlags, intOption, openEngine } from '../context.js';
import { NOTHING_INDEXED, print, printJson, warn } from '../output.js';

export interface EmbedFlags extends GlobalFlags {
  limit?: string;
  status?: boolean;
}

/** A line on stderr now and then (on a terminal, never with --json): done, the rate, the time left. */
function reporter(json: boolean): (p: EmbedProgress) => void {
  if (json || !process.stderr.isTTY) return () => {};
  let last = 0;
  return (p) => {
    if (Date.now() - last < 2000) return;
    last = Date.now();
    const left = p.rate > 0 ? Math.round((p.total - p.embedded) / p.rate) : 0;
    warn(
      `embedding: ${p.embedded} of ${p.total} steps · ${p.rate.toFixed(0)}/s · ${Math.floor(left / 60)} min ${left % 60} s left`,
    );
  };
}

export async function runEmbed(flags: EmbedFlags): Promise<void> {
  const limit = intOption('limit', flags.limit, 0);
  const engine = openEngine(flags, { read: !!flags.status });
  try {
    if (flags.status) {
      const s = engine.meaning.status();
      if (flags.json) return printJson(s);
      return print(
        `${s.embedded} of ${s.total} prompts, replies and summaries have a meaning vector (${s.model})`,
      );
    }
    const summary = await engine.meaning.embed({ limit, onProgress: reporter(!!flags.json) });
    if (flags.json) return printJson(summary);
    if (summary.total === 0) return print(NOTHING_INDEXED);
    print(
      `Embedded ${summary.added} steps in ${summary.seconds.toFixed(1)} s; ${summary.embedded} of ${summary.total} now have a meaning vector (${summary.model}).`,
    );
    if (summary.embedded < summary.total)
      print('Run `tapedeck embed` again to go on; search already uses the vectors there are.');
  } finally {
    engine.close();
  }
}
