/**
 * Antigravity step numbers.
 *
 * Antigravity numbers its own steps (`step_index`), and that is the `step` users and agents see.
 * One native step can become several normalized steps (a PLANNER_RESPONSE carries thinking,
 * visible text and tool calls), so each native step owns a block of STEP_STRIDE numbers in the
 * internal order (`Step.seq`, never shown):
 *
 *   seq = step_index * 16 + slot
 *
 *   slot 0      the native step itself: prompt, tool result, error — or a planner's reasoning
 *   slot 1      a planner's visible response text
 *   slots 2–15  a planner's tool calls, in order (at most 14; more are reported as an issue)
 *
 * Orders stay unique and stable while the file grows, and the native index is
 * `Math.floor(seq / 16)`: internal order 1234 is native step 77, slot 2 (its first tool call), and
 * `tapedeck://thread/antigravity:<id>#77` shows all of step 77.
 */

export const STEP_STRIDE = 16;

/** Slot of each normalized piece inside its native step's block. */
export const SLOT = {
  main: 0,
  reasoning: 0,
  response: 1,
  firstToolCall: 2,
} as const;

/** Tool calls one native step can number; later ones still pair with results but get no step. */
export const MAX_TOOL_CALL_SLOTS = STEP_STRIDE - SLOT.firstToolCall;

/** The internal order (`Step.seq`) of `slot` within native step `stepIndex`. */
export function antigravityStep(stepIndex: number, slot: number): number {
  return stepIndex * STEP_STRIDE + slot;
}

/** The native Antigravity `step_index` an internal order came from. */
export function nativeStepIndex(step: number): number {
  return Math.floor(step / STEP_STRIDE);
}

/** The slot of an internal order inside its native step (see SLOT). */
export function stepSlot(step: number): number {
  return step - nativeStepIndex(step) * STEP_STRIDE;
}
