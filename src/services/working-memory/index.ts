/** The working-memory service: the daily briefing (see service.ts for the staleness rule). */
export { LIMITS, WINDOW_DAYS, windowOf } from './generate.js';
export {
  createWorkingMemoryService,
  MAX_SECTION_CHARS,
  type RegenerationCause,
  type WmScope,
  type WmSectionView,
  type WorkingMemory,
  type WorkingMemoryDeps,
  type WorkingMemoryService,
} from './service.js';
