/**
 * Neighbour text: what a step is indexed with besides its own text. Many answers reply to a
 * question asked one turn earlier and share no word with it ("why did we drop Redis?" → "Because
 * invalidation kept serving stale prices"), so each conversational step carries the head of the
 * previous and of the next conversational turn in a lower-weighted field, written at index time.
 * Stored as `<previous head>\n<next head>`: each head is one line, so either side can be replaced.
 */
import { fnv1a } from './hash.js';
import type { StepKind } from './types.js';

/** Characters of a neighbouring turn kept beside a step. */
export const NEIGHBOUR_CHARS = 300;

/** Prompts, responses and summaries are turns; tool traffic and reasoning sit between them. */
export function isTurn(kind: StepKind): boolean {
  return kind === 'prompt' || kind === 'response' || kind === 'summary';
}

/** The head of a turn as one line (line breaks and tabs become spaces), at most NEIGHBOUR_CHARS. */
export function turnHead(text: string): string {
  return text.slice(0, NEIGHBOUR_CHARS).replace(/[\r\n\t]/g, ' ');
}

/** The neighbour field of a step from its previous and next turns' heads ('' when it has neither). */
export function joinContext(previous: string, next: string): string {
  return previous || next ? `${previous}\n${next}` : '';
}

/** The two sides of a stored neighbour field. */
export function splitContext(context: string): { previous: string; next: string } {
  const i = context.indexOf('\n');
  return i === -1
    ? { previous: context, next: '' }
    : { previous: context.slice(0, i), next: context.slice(i + 1) };
}

/**
 * The content hash of a stored step: its text and its neighbour field, so a step whose
 * neighbours changed is rewritten (and its index entry with it) like one whose text changed.
 */
export function stepHash(text: string, context: string): number {
  return context ? fnv1a(`${text}\u0000${context}`) : fnv1a(text);
}
