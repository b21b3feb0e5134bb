import { join } from 'node:path';
import type { ParseIssue } from '../../core/types.js';
import type { LocateEnv, TranscriptFile } from '../../ports/source.js';
import { isFileLike, listDir } from '../list-dir.js';

const SESSION_LINES = /^session-.+\.jsonl$/;
const SESSION_DOCUMENT = /^session-.+\.json$/;

/** Every Gemini CLI session file on this machine. */
export function locateGeminiCli(env: LocateEnv, report: (issue: ParseIssue) => void): TranscriptFile[] {
  const base = env.env.GEMINI_CLI_HOME?.trim() || env.home;
  const tmp = join(base, '.gemini', 'tmp');
  const found: TranscriptFile[] = [];
  for (const project of listDir(tmp, report)) {
    if (!project.isDirectory()) continue;
    const chats = join(tmp, project.name, 'chats');
    const entries = listDir(chats, report);
    const names = new Set(entries.map((e) => e.name));
    for (const e of entries) {
      const path = join(chats, e.name);
      if (e.isDirectory()) {
        for (const sub of listDir(path, report)) {
          if (isFileLike(sub) && sub.name.endsWith('.jsonl'))
            found.push({ path: join(path, sub.name), mode: 'lines' });
        }
      } else if (!isFileLike(e)) {
      } else if (SESSION_LINES.test(e.name)) {
        found.push({ path, mode: 'lines' });
      } else if (SESSION_DOCUMENT.test(e.name) && !names.has(`${e.name}l`)) {
        found.push({ path, mode: 'document' });
      }
    }
  }
  return found;
}
