/**
 * Text out of a Gemini `PartListUnion`: a string, one part, or an array of parts (`{text}`,
 * `{functionCall}`, `{functionResponse}`, `{inlineData}`, …). Only text parts count; parts the
 * model marked `thought: true` are reasoning, kept apart from the visible text.
 */
import { isRecord } from '../../core/text.js';

/**
 * Concatenated text of the parts, in order ('' when there is none): the visible text, or with
 * `thoughts` the parts marked `thought: true` instead.
 */
export function partsText(content: unknown, thoughts = false): string {
  if (typeof content === 'string') return thoughts ? '' : content;
  const parts = Array.isArray(content) ? content : [content];
  let text = '';
  for (const part of parts) {
    if (typeof part === 'string' && !thoughts) text += part;
    else if (isRecord(part) && typeof part.text === 'string' && (part.thought === true) === thoughts) {
      text += part.text;
    }
  }
  return text;
}
