/**
 * Gemini CLI names a project's folder by the SHA-256 of the project root (`~/.gemini/tmp/<hash>/`,
 * also the session's `projectHash`). Older releases kept no `.project_root` beside it and the
 * session records no cwd, but its tool calls name absolute paths inside the project: the ancestor
 * of such a path whose hash is the project hash *is* the root — checked, not guessed.
 */
import { createHash } from 'node:crypto';

const HASH = /^[0-9a-f]{64}$/;

/** The project hash of a session: its `projectHash` field, else its `tmp/<hash>/chats` folder name. */
export function projectHashOf(meta: Record<string, unknown>, sessionPath: string): string | undefined {
  if (typeof meta.projectHash === 'string' && HASH.test(meta.projectHash)) return meta.projectHash;
  const parts = sessionPath.split(/[\\/]/);
  const folder = parts[parts.lastIndexOf('chats') - 1];
  return folder && HASH.test(folder) ? folder : undefined;
}

/**
 * The folder among the ancestors of the absolute paths in `text` (a tool call's target) whose
 * SHA-256 is `hash`; `tried` remembers folders already hashed so a long session hashes each once.
 */
export function rootWithHash(text: string, hash: string, tried: Set<string>): string | undefined {
  for (const token of text.split(/[\s,]+/)) {
    if (!token.startsWith('/')) continue;
    const parts = token.split('/');
    for (let n = parts.length; n > 1; n--) {
      const dir = parts.slice(0, n).join('/');
      if (tried.has(dir)) break;
      tried.add(dir);
      if (createHash('sha256').update(dir).digest('hex') === hash) return dir;
    }
  }
  return undefined;
}
