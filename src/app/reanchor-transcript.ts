/**
 * The re-anchor straight from a transcript file, for the hook that runs right after a compaction
 * (Claude Code's SessionStart with source `compact`): the file is fresher than the index, and
 * reading it needs no store. Secrets are redacted before anything reaches the agent.
 */

import { buildReanchor, compactionSteps, type Reanchor } from '../core/reanchor.js';
import { redact } from '../core/redact.js';
import type { AgentId, Step } from '../core/types.js';
import { readTranscriptSteps } from './session-capture.js';

export interface TranscriptReanchorOptions {
  /** The host's session id, when the parser finds none in the file. */
  sessionId?: string;
  budget?: number;
}

/**
 * The steps before the compaction that just happened: before its summary when the host has
 * written it already, else (the summary comes later) every step so far — not those before an
 * older compaction.
 */
function justBefore(steps: readonly Step[]): number | undefined {
  const last = compactionSteps(steps).at(-1);
  if (last === undefined) return undefined;
  const after = steps.some((s) => s.step > last && (s.role === 'user' || s.role === 'tool'));
  return after ? (steps.at(-1)?.step ?? last) + 1 : last;
}

/** Build the re-anchor of the session in `path` as of the compaction that just happened. */
export function reanchorFromTranscript(
  agent: AgentId,
  path: string,
  options: TranscriptReanchorOptions = {},
): Reanchor {
  const { meta, steps } = readTranscriptSteps(agent, path);
  const clean = steps.map((s) => ({
    ...s,
    text: redact(s.text).text,
    ...(s.target ? { target: redact(s.target).text } : {}),
  }));
  const session = meta.sessionId ?? options.sessionId ?? 'unknown';
  return buildReanchor(clean, {
    thread: `${agent}:${session}`,
    project: meta.project,
    budget: options.budget,
    before: justBefore(clean),
  });
}
