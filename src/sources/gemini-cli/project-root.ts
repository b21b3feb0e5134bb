/**
 * Gemini CLI keys its folders by a project hash or slug (`~/.gemini/tmp/<project>/chats/…`) and
 * records the project's path in a `.project_root` file in that folder. A session that names no
 * workspace itself gets its project from there.
 */
import { readFileSync } from 'node:fs';

/** The project directory recorded beside a session's `chats/` folder, if any. */
export function projectRootBeside(sessionPath: string): string | undefined {
  const parts = sessionPath.split(/[\\/]/);
  const chats = parts.lastIndexOf('chats');
  if (chats < 1) return undefined;
  let text: string;
  try {
    text = readFileSync([...parts.slice(0, chats), '.project_root'].join('/'), 'utf8');
  } catch {
    return undefined;
  }
  const dir = text.trim().split('\n')[0]?.trim();
  return dir && (dir.startsWith('/') || /^[A-Za-z]:[\\/]/.test(dir)) ? dir : undefined;
}
