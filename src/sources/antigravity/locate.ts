/**
 * Finds Antigravity transcripts: under each root (`~/.gemini/antigravity/` desktop,
 * `antigravity-ide/`, `antigravity-cli/`), every `brain/<conversationId>/.system_generated/logs/`
 * holds `transcript_full.jsonl` (complete) and/or `transcript.jsonl` (compacted, long outputs cut).
 * Exactly one file per conversation is returned, the full one when present, so a conversation
 * never becomes two threads. Directory listings only. No environment variable moves these roots.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { ParseIssue } from '../../core/types.js';
import type { LocateEnv, TranscriptFile } from '../../ports/source.js';
import { listDir } from '../list-dir.js';

/** Antigravity's data roots under `~/.gemini/`, one per product flavour. */
export const ANTIGRAVITY_ROOTS = ['antigravity', 'antigravity-ide', 'antigravity-cli'] as const;

const FULL = 'transcript_full.jsonl';
const COMPACTED = 'transcript.jsonl';

/** Every conversation transcript under the known roots. */
export function locateAntigravity(env: LocateEnv, report: (issue: ParseIssue) => void): TranscriptFile[] {
  const found: TranscriptFile[] = [];
  for (const root of ANTIGRAVITY_ROOTS) {
    const brain = join(env.home, '.gemini', root, 'brain');
    for (const conversation of listDir(brain, report)) {
      if (!conversation.isDirectory()) continue;
      const logs = join(brain, conversation.name, '.system_generated', 'logs');
      // Two cheap stats instead of listing the logs folder: this runs before every MCP answer.
      const pick = [FULL, COMPACTED].map((n) => join(logs, n)).find((p) => isFile(p, report));
      if (pick) found.push({ path: pick, mode: 'lines' });
    }
  }
  return found;
}

/** Entries of `dir`; [] when it does not exist (or is not a directory), reported when unreadable. */
function isFile(path: string, report: (issue: ParseIssue) => void): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOTDIR') report({ path, message: `cannot read: ${code ?? (e as Error).message}` });
    return false;
  }
}
