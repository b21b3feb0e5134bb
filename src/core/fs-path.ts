/**
 * Paths of Tapedeck's virtual filesystem (`tapedeck fs`, the MCP `fs` tools): a tree of Tapedeck's own
 * records, never files on this machine. Parsing is strict, because an agent may pass anything:
 * `..`, NUL bytes, empty components, backslashes, home or drive paths and URLs are refused with
 * INVALID_INPUT naming the problem; what survives is a list of plain components under `/`.
 *
 * Names that hold a `/` or `%` (a label like `ci/cd`, a client-given thread id) are escaped as
 * `%2F` and `%25` in one component, so a record is always exactly one component.
 */
import { invalidInput } from './errors.js';

export const MAX_FS_PATH = 1024;
export const ROOT = '/';

/** Top-level folders of a host filesystem: a path starting with one is not Tapedeck's tree. */
const HOST_ROOTS = new Set([
  'home',
  'users',
  'etc',
  'tmp',
  'var',
  'usr',
  'root',
  'opt',
  'mnt',
  'media',
  'private',
  'proc',
  'dev',
  'sys',
  'bin',
  'sbin',
  'lib',
  'volumes',
  'system',
  'applications',
  'library',
  'windows',
  'srv',
  'run',
  'boot',
  'snap',
  'nix',
  'workspace',
  'work',
]);

export interface FsPath {
  /** Components under the root, unescaped (`['memories', 'by-label', 'ci/cd']`). */
  segments: string[];
  /** True when the input ended with `/` (asks for a folder). */
  dirHint: boolean;
}

/** One record name as a path component: `/` and `%` escaped. */
export function escapeName(name: string): string {
  return name.replace(/%/g, '%25').replace(/\//g, '%2F');
}

/** A component back to the record name it names. */
export function unescapeName(component: string): string {
  return component.replace(/%2F/gi, '/').replace(/%25/g, '%');
}

/** The canonical text of a path (`/` for the root). */
export function formatFsPath(segments: readonly string[]): string {
  return `/${segments.map(escapeName).join('/')}`;
}

/** `tapedeck://memory/<id>`, `tapedeck://thread/<id>[#step]` and `tapedeck://fs/<path>` as tree paths. */
function fromLink(input: string): string | null {
  const m = /^tapedeck:\/\/(memory|thread|fs)(\/.*)?$/.exec(input);
  if (!m) return null;
  const rest = (m[2] ?? '').replace(/^\//, '');
  if (m[1] === 'fs') return `/${rest}`;
  const id = rest.replace(/[#?].*$/, '');
  if (!id) throw invalidInput(`The link "${input}" names no ${m[1]}`);
  return m[1] === 'memory' ? `/memories/by-id/${escapeName(id)}.md` : `/threads/by-id/${escapeName(id)}.md`;
}

/**
 * Parse a path of the tree. Relative paths are read from the root (`memories` = `/memories`).
 * Throws INVALID_INPUT for anything that is not a plain path inside the tree.
 */
export function parseFsPath(input: unknown): FsPath {
  if (typeof input !== 'string') throw invalidInput('The path must be text, e.g. /memories/by-id');
  if (input.includes('\u0000')) throw invalidInput('The path contains a NUL byte');
  if (/[\u0001-\u001f\u007f]/.test(input)) throw invalidInput('The path contains control characters');
  const raw = input.trim();
  if (raw === '') throw invalidInput('The path is empty; the root is /');
  if (raw.length > MAX_FS_PATH) throw invalidInput(`The path is over ${MAX_FS_PATH} characters`);
  const linked = raw.startsWith('tapedeck://') ? fromLink(raw) : null;
  if (raw.startsWith('tapedeck://') && linked === null)
    throw invalidInput(
      `"${raw}" is not a link Tapedeck's fs reads (tapedeck://memory/…, tapedeck://thread/…, tapedeck://fs/…)`,
    );
  const text = linked ?? raw;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text))
    throw invalidInput(
      `"${raw}" is a URL; tapedeck fs only reads Tapedeck's own tree (/memories, /threads, …)`,
    );
  if (text.includes('\\'))
    throw invalidInput(`The path "${raw}" contains a backslash; separate folders with "/"`);
  if (/^[A-Za-z]:/.test(text))
    throw invalidInput(
      `"${raw}" is a drive path on this machine; tapedeck fs only reads Tapedeck's own tree`,
    );
  if (text.startsWith('~'))
    throw invalidInput(`"${raw}" is a home path on this machine; tapedeck fs only reads Tapedeck's own tree`);
  const body = text.startsWith('/') ? text.slice(1) : text;
  const dirHint = body.endsWith('/') || body === '';
  const trimmed = body.replace(/\/$/, '');
  const parts = trimmed === '' ? [] : trimmed.split('/');
  const segments: string[] = [];
  for (const p of parts) {
    if (p === '') throw invalidInput(`The path "${raw}" has an empty component ("//")`);
    if (p === '..')
      throw invalidInput(`The path "${raw}" contains ".."; give the path from the root instead`);
    if (p === '.') continue;
    if (p !== p.trim()) throw invalidInput(`The path "${raw}" has a component with surrounding spaces`);
    const name = unescapeName(p);
    // An escaped `/` makes one name, but `..` inside it is still an attempt to climb.
    if (name.split('/').some((x) => x === '..' || x === '.'))
      throw invalidInput(`The path "${raw}" contains ".." (escaped); give the path from the root instead`);
    segments.push(name);
  }
  if (segments.length > 0 && HOST_ROOTS.has(segments[0].toLowerCase()) && !linked)
    throw invalidInput(
      `"${raw}" looks like a path on this machine; tapedeck fs only shows Tapedeck's own tree (/memories, /threads, /skills, /rules, /wiki, /working-memory)`,
    );
  return { segments, dirHint };
}
