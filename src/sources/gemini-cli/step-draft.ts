import type { Step } from '../../core/types.js';

/** A step before it has a number and a source line (the session assigns both). */
export type StepDraft = Omit<Step, 'step' | 'source'>;
