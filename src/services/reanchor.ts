/**
 * The re-anchor of an indexed session: what a compaction dropped from the agent's context, rebuilt
 * from the stored steps (core/reanchor.ts). Without a thread it takes the latest main session
 * (not a subagent's) of the project, else of any project.
 */
import { invalidInput, notFound } from '../core/errors.js';
import { buildReanchor, DEFAULT_REANCHOR_BUDGET, type Reanchor } from '../core/reanchor.js';
import type { AgentId } from '../core/types.js';
import type { SearchFilters, TranscriptStore } from '../ports/transcript-store.js';
import { readAllSteps } from './saved-threads/handoff.js';

export interface ReanchorInput {
  /** A thread id; default: the latest session of `project` (and `agent`). */
  thread?: string;
  /** An absolute project directory. */
  project?: string;
  agent?: AgentId;
  /** Token budget (default 600, 100 to 8,000). */
  budget?: number;
  /** Read the steps before this one instead of before the last compaction. */
  before?: number;
}

const MIN_BUDGET = 100;
const MAX_BUDGET = 8000;

/** The thread a re-anchor is for: the one named, else the project's latest main session. */
function pickThread(store: TranscriptStore, input: ReanchorInput): string {
  if (input.thread !== undefined) {
    if (typeof input.thread !== 'string' || input.thread.trim() === '') throw invalidInput('thread is empty');
    if (!store.getThread(input.thread))
      throw notFound(`No thread "${input.thread}"; list threads with \`tapedeck threads\``, {
        thread_id: input.thread,
      });
    return input.thread;
  }
  const filters: SearchFilters = {};
  if (input.project) filters.project = input.project;
  if (input.agent) filters.agents = [input.agent];
  const recent = store.listThreads(filters, 50, 0).filter((t) => !t.parentId);
  // A session in the project itself beats a newer one in a folder below it.
  const pick = recent.find((t) => !input.project || t.project === input.project) ?? recent[0];
  if (!pick)
    throw notFound(
      input.project
        ? `No indexed session in ${input.project}; run \`tapedeck index\` or name a thread`
        : 'No indexed session; run `tapedeck index` first',
    );
  return pick.id;
}

/** Build the re-anchor of one session from the store. */
export function reanchorThread(store: TranscriptStore, input: ReanchorInput = {}): Reanchor {
  const budget = input.budget ?? DEFAULT_REANCHOR_BUDGET;
  if (!Number.isInteger(budget) || budget < MIN_BUDGET || budget > MAX_BUDGET)
    throw invalidInput(`budget must be a whole number from ${MIN_BUDGET} to ${MAX_BUDGET}, got ${budget}`);
  if (input.before !== undefined && !Number.isInteger(input.before))
    throw invalidInput('before must be a step number');
  const id = pickThread(store, input);
  const thread = store.getThread(id)!;
  return buildReanchor(readAllSteps(store, id), {
    thread: id,
    project: thread.project,
    budget,
    before: input.before,
  });
}
