/**
 * What gets indexed from a parsed step: prompts, responses and reasoning in full up to a cap;
 * tool output reduced to a short head plus its error lines (tool output is most of a transcript's
 * bytes and least of its value); secrets redacted before anything is stored.
 */
import { flaggedLines } from '../core/error-lines.js';
import { identTerms } from '../core/idents.js';
import { stepHash } from '../core/neighbours.js';
import { redact } from '../core/redact.js';
import { markRedacted, redactRecord } from '../core/redact-record.js';
import { capText } from '../core/text.js';
import type { Step } from '../core/types.js';
import type { PreparedStep } from '../ports/transcript-store.js';

export interface IndexPolicy {
  /** Cap for prompts, responses, reasoning and summaries (characters). */
  maxTextChars: number;
  /** Head of tool output kept (characters). */
  toolOutputChars: number;
}

export const DEFAULT_POLICY: IndexPolicy = { maxTextChars: 10_000, toolOutputChars: 800 };

const MAX_ERROR_LINES = 5;
/** How much of a tool output is scanned for error lines and secrets. */
const OUTPUT_SCAN_CHARS = 200_000;

/** Head of a tool output plus the error/warning lines found after it. */
export function reduceToolOutput(text: string, head: number, total = text.length): string {
  if (total <= head) return text;
  const errors = flaggedLines(text.slice(head), MAX_ERROR_LINES).map((l) => l.trim().slice(0, 240));
  const note = `[… ${total - head} more characters of output${errors.length ? '; error lines:' : ''}]`;
  return [text.slice(0, head), note, ...errors].join('\n');
}

/** Cap, reduce and redact a step; null when nothing searchable is left. */
export function prepareStep(step: Step, policy: IndexPolicy): PreparedStep | null {
  const isOutput = step.kind === 'tool_result';
  const limit = isOutput ? policy.toolOutputChars : policy.maxTextChars;
  // Redact before cutting, so a secret straddling the cut cannot leave its first half behind, but
  // only over what can be kept, so a multi-megabyte output costs little.
  const scan = isOutput ? OUTPUT_SCAN_CHARS : limit + 4_000;
  const total = step.text.length;
  const clean = redact(total > scan ? step.text.slice(0, scan) : step.text).text;
  const text = isOutput ? reduceToolOutput(clean, limit, total) : capText(clean, limit, total);
  if (text.trim() === '') return null;
  // Every other string too (target, tool, timestamp, source path, and any field added later): the
  // result is marked redacted, so the store boundary takes it as it is instead of redacting again.
  const { text: _raw, ...fields } = step;
  const rest = redactRecord(fields);
  return markRedacted(withTerms({ ...rest, text, target: rest.target || undefined }));
}

/**
 * A stored (already capped and redacted) step with its identifier terms and content hash, and no
 * neighbour field yet (ingest/neighbours.ts links a batch's turns).
 */
export function withTerms(step: Step): PreparedStep {
  const idents = step.target
    ? `${identTerms(step.target)} ${identTerms(step.text)}`.trim()
    : identTerms(step.text);
  return { ...step, idents, context: '', hash: stepHash(step.text, '') };
}
