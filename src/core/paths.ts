/** Project paths as keys: absolute, without trailing separators, compared by prefix. */
const ABSOLUTE_RE = /^(?:\/|[A-Za-z]:[\\/])/;

export const isAbsolutePath = (p: string) => ABSOLUTE_RE.test(p);

/** Trailing separators off (`/a/b/` → `/a/b`), the root kept. */
export function normalizeProjectPath(p: string): string {
  const t = p.trim();
  const stripped = t.replace(/[\\/]+$/, '');
  return stripped === '' ? t.slice(0, 1) : /^[A-Za-z]:$/.test(stripped) ? `${stripped}\\` : stripped;
}

/** True when `path` is `root` or lies below it. */
export function isUnder(path: string, root: string): boolean {
  if (path === root) return true;
  const base = /[\\/]$/.test(root)
    ? root
    : `${root}${root.includes('\\') && !root.includes('/') ? '\\' : '/'}`;
  return path.startsWith(base);
}

/** The path and every directory above it, deepest first: `/a/b` → `/a/b`, `/a`, `/`. */
export function ancestors(path: string): string[] {
  const out: string[] = [];
  let p = normalizeProjectPath(path);
  for (let i = 0; i < 256 && p; i++) {
    out.push(p);
    const cut = Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\'));
    if (cut <= 0) {
      if (p !== '/' && p.startsWith('/')) out.push('/');
      break;
    }
    const up = p.slice(0, cut);
    p = /^[A-Za-z]:$/.test(up) ? `${up}\\` : up;
    if (out.includes(p)) break;
  }
  return out;
}
