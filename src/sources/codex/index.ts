/** Codex CLI source adapter: rollouts under `~/.codex/sessions`. */
import type { SourceAdapter } from '../../ports/source.js';
import { locateCodex } from './locate.js';
import { CodexLineParser, parseCodexDocument } from './parse.js';

/** Adapter for the Codex CLI (`codex`): JSONL rollouts, plus legacy `.json` rollout documents. */
export const codexAdapter: SourceAdapter = {
  id: 'codex',
  displayName: 'Codex CLI',
  locate: locateCodex,
  createLineParser: (path, state) => new CodexLineParser(path, state),
  parseDocument: parseCodexDocument,
};
