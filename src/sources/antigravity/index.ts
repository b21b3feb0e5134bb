/** Google Antigravity source adapter (desktop, IDE and CLI flavours). */
import type { SourceAdapter } from '../../ports/source.js';
import { locateAntigravity } from './locate.js';
import { AntigravityLineParser } from './parse.js';

export { antigravityStep, nativeStepIndex, STEP_STRIDE, stepSlot } from './step-number.js';

/**
 * Reads `~/.gemini/antigravity{,-ide,-cli}/brain/<conversationId>/.system_generated/logs/transcript*.jsonl`.
 * A step's `step` is Antigravity's own `step_index`; its internal order `seq` is
 * `step_index * 16 + slot` (see step-number.ts), never shown.
 */
export const antigravityAdapter: SourceAdapter = {
  id: 'antigravity',
  displayName: 'Google Antigravity',
  locate: locateAntigravity,
  createLineParser: (path, state) => new AntigravityLineParser(path, state),
  parseDocument(path, text, sink) {
    // Transcripts are JSONL; a whole file handed over at once is fed line by line.
    const parser = new AntigravityLineParser(path);
    const lines = text.split('\n');
    if (lines.at(-1) === '') lines.pop();
    for (const [i, l] of lines.entries()) parser.line(l, i + 1, sink);
  },
};
