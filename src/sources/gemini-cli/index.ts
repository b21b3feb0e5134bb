/** Gemini CLI source adapter. */
import type { SourceAdapter } from '../../ports/source.js';
import { locateGeminiCli } from './locate.js';
import { GeminiLineParser, parseGeminiDocument } from './parse.js';

/** Reads `~/.gemini/tmp/<project>/chats/session-*.json` (documents) and `session-*.jsonl` (logs). */
export const geminiCliAdapter: SourceAdapter = {
  id: 'gemini-cli',
  displayName: 'Gemini CLI',
  locate: locateGeminiCli,
  createLineParser: (path, state) => new GeminiLineParser(path, state),
  parseDocument: parseGeminiDocument,
};
