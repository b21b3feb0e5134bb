/** Wiring for `tapedeck eval`: the engine's store and search service, and the FTS5 baselines. */
import { createEvalService, type EvalService } from '../services/eval.js';
import { createSqliteBaselineIndex } from '../storage/sqlite/baseline-index.js';
import type { Engine } from './engine.js';

/** The scorecard over a local engine (the baselines always run on SQLite, whatever the backend). */
export function createEngineEval(engine: Engine): EvalService {
  return createEvalService({
    transcripts: engine.transcripts,
    store: engine.store,
    createBaseline: createSqliteBaselineIndex,
  });
}

export type { EvalOptions, EvalReport, System } from '../services/eval.js';
