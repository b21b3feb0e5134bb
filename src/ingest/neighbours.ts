/**
 * Fills the neighbour field of a batch's turns at index time (core/neighbours.ts says why): each
 * turn gets the heads of the previous and next turns of its thread. Inside the batch that is a
 * walk over the list; across batch boundaries one lookup of the stored turns around the batch,
 * and an update of the stored previous turn (whose next side was unknown when it was written)
 * and, when the batch rewrote earlier turns, of the stored next one.
 */
import { isTurn, joinContext, splitContext, stepHash, turnHead } from '../core/neighbours.js';
import { seqOf } from '../core/types.js';
import type { PreparedStep, TranscriptWriter } from '../ports/transcript-store.js';

const setContext = (s: PreparedStep, previous: string, next: string) => {
  s.context = joinContext(previous, next);
  s.hash = stepHash(s.text, s.context);
};

/**
 * Link the turns of one thread's batch (in order) to each other and to the stored turns
 * just before and after it. Non-turn steps keep an empty neighbour field.
 */
export function linkNeighbours(w: TranscriptWriter, threadId: string, steps: PreparedStep[]): void {
  // A step written twice in one batch (a streamed reply growing) counts once, as its last version.
  const byStep = new Map<number, PreparedStep>();
  for (const s of steps) if (isTurn(s.kind)) byStep.set(seqOf(s), s);
  const turns = [...byStep.values()].sort((a, b) => seqOf(a) - seqOf(b));
  if (turns.length === 0) return;
  const first = turns[0]!;
  const last = turns[turns.length - 1]!;
  const stored = w.storedTurns(threadId, seqOf(first), seqOf(last));
  turns.forEach((s, i) => {
    const prev = i > 0 ? turns[i - 1]!.text : stored.previous?.text;
    const next = i < turns.length - 1 ? turns[i + 1]!.text : stored.next?.text;
    setContext(s, prev === undefined ? '' : turnHead(prev), next === undefined ? '' : turnHead(next));
  });
  // The stored previous turn was written before this one existed: give it its next side; a
  // stored next turn (the batch rewrote turns before it) gets its previous side again.
  const p = stored.previous;
  if (p) {
    const head = turnHead(first.text);
    const { previous, next } = splitContext(p.context);
    if (next !== head) {
      const context = joinContext(previous, head);
      w.setContext(threadId, p.seq, context, stepHash(p.text, context));
    }
  }
  const n = stored.next;
  if (n) {
    const head = turnHead(last.text);
    const { previous, next } = splitContext(n.context);
    if (previous !== head) {
      const context = joinContext(head, next);
      w.setContext(threadId, n.seq, context, stepHash(n.text, context));
    }
  }
}
