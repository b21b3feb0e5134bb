/**
 * Directory listing for the adapters' locate functions (shared, not an adapter). A missing
 * directory — or a file where a directory was expected — is simply empty; any other failure
 * (EACCES, ELOOP…) is reported and skipped.
 */
import { type Dirent, readdirSync } from 'node:fs';
import type { ParseIssue } from '../core/types.js';

export function listDir(dir: string, report: (issue: ParseIssue) => void): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') {
      report({ path: dir, message: `cannot read directory: ${code ?? (e as Error).message}` });
    }
    return [];
  }
}

// Symlinks are accepted as either kind without a stat; a wrong guess just lists as empty (ENOTDIR).
export const isDirLike = (d: Dirent) => d.isDirectory() || d.isSymbolicLink();
export const isFileLike = (d: Dirent) => d.isFile() || d.isSymbolicLink();
