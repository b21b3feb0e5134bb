/** The whole catalogue: every operation every interface projects (docs/ARCHITECTURE.md). */
import type { Operation } from './define.js';
import { KEY_OPS } from './keys.js';
import { RULE_OPS } from './rules.js';

export type { OpCall, OpEffect, Operation, OpServices } from './define.js';
export { httpLayout, invalidFrom, parseWith, runOp } from './define.js';

/** Every operation, grouped by feature. */
export const CATALOG: readonly Operation[] = [...RULE_OPS, ...KEY_OPS] as unknown as readonly Operation[];
