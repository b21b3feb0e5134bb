/**
 * Where an Antigravity session worked. The transcript has no cwd field, so the project is taken
 * from what it does record, strongest first:
 * 1. the workspace list Antigravity states to the model ("The user has 1 active workspaces, each
 *    defined by a URI and a CorpusName … `file:///home/dev/shop -> home/dev/shop`"), when a step
 *    carries it;
 * 2. the `Cwd` of a command the agent ran;
 * 3. else the deepest folder holding every absolute path the session named: the `Active Document`
 *    of its requests and the files its file tools acted on (never Antigravity's own brain folder).
 *    Too deep at worst, never a different project: project filters match "this folder or below".
 */

export type ProjectSource = 'workspace' | 'cwd' | 'paths';

const RANK: Record<ProjectSource, number> = { paths: 0, cwd: 1, workspace: 2 };

/** True when `next` may replace a project found by `current`. */
export const outranks = (next: ProjectSource, current: ProjectSource | undefined): boolean =>
  current === undefined || RANK[next] > RANK[current] || (next === 'paths' && current === 'paths');

const LISTING = /active workspaces?, each defined by a URI and a CorpusName[^\n]*\n((?:[^\n]*->[^\n]*\n?)+)/;
const ACTIVE_DOCUMENT = /^Active Document: (.+?)(?: \(LANGUAGE_[A-Z_]+\))?\s*$/m;

/** A `file://` URI or a path as a plain absolute path; undefined for anything else. */
export function toPath(uriOrPath: string): string | undefined {
  let p = uriOrPath.trim();
  if (p.startsWith('file://')) {
    try {
      p = decodeURIComponent(p.slice('file://'.length));
    } catch {
      return undefined;
    }
    if (/^\/[A-Za-z]:[\\/]/.test(p)) p = p.slice(1);
  }
  if (!(p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p))) return undefined;
  return p.length > 1 ? p.replace(/[\\/]+$/, '') : p;
}

/** The first workspace of a stated workspace list in `text`, if there is one. */
export function workspaceFromListing(text: string): string | undefined {
  const m = LISTING.exec(text);
  if (!m) return undefined;
  for (const row of m[1].split('\n')) {
    const uri = row.split(' -> ')[0];
    const path = uri ? toPath(uri) : undefined;
    if (path) return path;
  }
  return undefined;
}

/** The `Active Document:` path a request's metadata names, if any. */
export function activeDocument(text: string): string | undefined {
  const m = ACTIVE_DOCUMENT.exec(text);
  return m ? toPath(m[1]) : undefined;
}

/**
 * The folder holding both `dir` (a folder, or undefined for none yet) and the file `path`;
 * `dir` unchanged when that would be shallower than `/home/<user>/<folder>`: a file outside the
 * project (a settings file, /etc/hosts) does not widen it to the whole home.
 */
export function foldPath(dir: string | undefined, path: string): string | undefined {
  if (/[\\/]\.gemini[\\/]/.test(path)) return dir;
  const parts = path.split(/[\\/]/);
  const folder = parts.slice(0, -1);
  const common = dir === undefined ? folder : commonPrefix(dir.split(/[\\/]/), folder);
  return common.filter(Boolean).length >= 3 ? common.join('/') : dir;
}

function commonPrefix(a: string[], b: string[]): string[] {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return a.slice(0, i);
}
