import type { Engine } from '../../../app/engine.js';
import { invalidInput } from '../../../core/errors.js';
import { posixQuote } from '../../../core/shell-quote.js';
import type { FilterInput } from '../../../services/transcripts.js';
import { type GlobalFlags, intOption, missingStorePath, openEngine, projectOption } from '../context.js';
import { formatSearch } from '../format.js';
import { NOTHING_INDEXED, print, printJson, warn } from '../output.js';

/** Bring the index up to date before answering; a failure only makes results staler. */
export function refreshQuietly(engine: Engine): void {
  try {
    // A transcript that is a FIFO or a device is skipped, never waited on; say so every time.
    for (const k of engine.transcripts.index().skipped)
      if (k.reason.startsWith('not a regular file')) warn(`tapedeck: skipped ${k.path}: ${k.reason}`);
  } catch (e) {
    warn(`tapedeck: index not refreshed (${(e as Error).message}); results may be stale`);
  }
}

export interface SearchFlags extends GlobalFlags, Omit<FilterInput, 'agent' | 'role'> {
  agent?: string[];
  role?: string[];
  limit?: string;
  by?: 'step' | 'thread';
  explain?: boolean;
  now?: string;
  /** Skip the incremental index pass before searching. */
  index?: boolean;
  /** false (`--no-meaning`): words alone. */
  meaning?: boolean;
}

/**
 * The query from the command's words. The search command lets unknown options through, so an
 * exclusion such as `-redis` is a query word even when it comes first; an unknown `--long` option
 * is still a usage error (most likely a mistyped flag) unless the words came after `--`.
 */
export function queryOf(words: string[], afterDashDash: boolean): string {
  const flag = afterDashDash ? undefined : words.find((w) => /^--[A-Za-z]/.test(w));
  if (flag)
    throw invalidInput(
      `unknown option '${flag.split('=')[0]}' (to search for it, put the query after --: tapedeck search -- ${flag})`,
    );
  return words.join(' ');
}

export async function runSearch(query: string, flags: SearchFlags): Promise<void> {
  const limit = intOption('limit', flags.limit, 1) ?? 10;
  // --no-index only reads: on a fresh machine it must not create the store
  const engine = openEngine(flags, { read: flags.index === false });
  try {
    if (flags.index !== false) refreshQuietly(engine);
    const result = await engine.transcripts.search(query, {
      agent: flags.agent,
      role: flags.role,
      project: projectOption(flags.project),
      since: flags.since,
      until: flags.until,
      thread: flags.thread,
      limit,
      by: flags.by,
      explain: flags.explain,
      now: flags.now,
      // Asked from inside a project: its sessions get a prior (not a filter).
      cwd: process.cwd(),
      // Closeness in meaning where `tapedeck embed` gave steps vectors and the words leave part of
      // the question unexplained (otherwise the model is not loaded).
      meaning: flags.meaning !== false,
    });
    if (flags.json) printJson(result);
    else if (missingStorePath(engine)) print(NOTHING_INDEXED);
    // The printed `tapedeck show` lines target the same store as this search.
    else
      print(
        formatSearch(result, flags.db ? ` --db ${posixQuote(flags.db)}` : '', { explain: flags.explain }),
      );
  } finally {
    engine.close();
  }
}
