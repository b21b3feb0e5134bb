/**
 * After a compaction: the re-anchor of the session from its transcript, put in front of the
 * context bundle. Loaded only on that event; a failure is logged and the session starts with the
 * bundle alone.
 */
import type { HookInput } from './hosts.js';
import type { Logger } from './log.js';

export async function reanchorText(input: HookInput, log: Logger): Promise<string | undefined> {
  if (!input.transcriptPath) {
    log('warn', 'compaction without a transcript_path: no re-anchor');
    return undefined;
  }
  try {
    const { reanchorFromTranscript } = await import('../../app/reanchor-transcript.js');
    const r = reanchorFromTranscript(input.agent, input.transcriptPath, { sessionId: input.sessionId });
    log('info', `re-anchor of ${r.steps} steps before step ${r.compacted_at ?? 'end'}: ${r.tokens} tokens`);
    return r.steps > 0 ? r.text.trimEnd() : undefined;
  } catch (e) {
    log('error', `no re-anchor: ${(e as Error).message}`);
    return undefined;
  }
}
