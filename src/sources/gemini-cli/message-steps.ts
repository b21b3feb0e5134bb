/**
 * One Gemini CLI message record → its steps, before numbering.
 *
 * Message types: `user` → prompt; `gemini` → reasoning (`thoughts[{subject, description}]`),
 * response (`content`), then each tool call followed by its result; `error` → a role 'system',
 * kind 'response' step `[error] …` (API errors, quota and auth failures are what people search
 * for); `info` and `warning` are the CLI talking to the terminal (slash-command output, notices)
 * → scaffolding, no step.
 *
 * Traps on user messages: `displayContent` (when present) is what the user typed, while `content`
 * can carry the files an `@path` pulled in after `--- Content from referenced files ---`; a chat
 * compression writes a synthetic user turn holding `<state_snapshot>…`, which is a continuation
 * summary, not a prompt.
 */

import { toIso } from '../../core/format.js';
import { isRecord } from '../../core/text.js';
import { partsText } from './content.js';
import type { StepDraft } from './step-draft.js';
import { toolCallDrafts } from './tool-call.js';

/** Steps of a message of a known type, or the unknown type's name. */
export type MessageSteps = { known: true; drafts: StepDraft[] } | { known: false; type: string };

const REFERENCED_FILES = '--- Content from referenced files ---';
const SCAFFOLDING = new Set(['info', 'warning']);

/** Steps for one message record; `fallbackTs` stands in when the record has no timestamp. */
export function messageSteps(msg: Record<string, unknown>, fallbackTs: string | undefined): MessageSteps {
  const type = typeof msg.type === 'string' ? msg.type : '';
  const ts = toIso(msg.timestamp) ?? fallbackTs;
  const at = (d: StepDraft): StepDraft => (ts && !d.timestamp ? { ...d, timestamp: ts } : d);
  const drafts: StepDraft[] = [];

  if (type === 'user') {
    const shown = msg.displayContent ?? msg.content;
    let text = partsText(shown);
    const cut = text.indexOf(REFERENCED_FILES);
    if (cut >= 0) text = text.slice(0, cut);
    text = text.trim();
    if (text.startsWith('<state_snapshot>')) drafts.push({ role: 'system', kind: 'summary', text });
    else if (text) drafts.push({ role: 'user', kind: 'prompt', text });
  } else if (type === 'gemini') {
    // Thought summaries normally arrive in `thoughts`; some records keep them as thought parts.
    const reasoning = thoughtsText(msg.thoughts) || partsText(msg.content, true).trim();
    if (reasoning) drafts.push({ role: 'assistant', kind: 'reasoning', text: reasoning });
    const response = partsText(msg.content).trim();
    if (response) drafts.push({ role: 'assistant', kind: 'response', text: response });
    if (Array.isArray(msg.toolCalls))
      for (const call of msg.toolCalls) drafts.push(...toolCallDrafts(call, ts));
  } else if (type === 'error') {
    const text = partsText(msg.content).trim();
    if (text) drafts.push({ role: 'system', kind: 'response', text: `[error] ${text}` });
  } else if (!SCAFFOLDING.has(type)) {
    return { known: false, type: type || '(none)' };
  }
  return { known: true, drafts: drafts.map(at) };
}

/** `thoughts[{subject, description}]` as one reasoning text. */
function thoughtsText(thoughts: unknown): string {
  if (!Array.isArray(thoughts)) return '';
  return thoughts
    .filter(isRecord)
    .map((t) =>
      [t.subject, t.description]
        .filter((s): s is string => typeof s === 'string' && s.trim() !== '')
        .map((s) => s.trim())
        .join('\n'),
    )
    .filter(Boolean)
    .join('\n\n');
}
