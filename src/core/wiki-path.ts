/**
 * Wiki page paths: relative, `/`-separated, ending in `.md`, never escaping the wiki. The fs layer
 * mounts pages under `/wiki`, so a path here is what follows `/wiki/`.
 */
import { invalidInput } from './errors.js';
import { squash } from './text.js';

export const MAX_WIKI_PATH = 200;

/**
 * Normalize a page path: repeated and surrounding slashes of segments collapse, `.` segments go,
 * `.md` is appended when missing. Rejected with INVALID_INPUT: empty, absolute (`/x`, `C:\x`, `~/x`),
 * any `..` segment, backslashes, control characters, over 200 characters.
 */
export function normalizeWikiPath(input: string): string {
  if (typeof input !== 'string' || input.trim() === '') throw invalidInput('The wiki path is empty');
  const raw = input.trim();
  if (raw.startsWith('/') || raw.startsWith('~') || /^[A-Za-z]:/.test(raw))
    throw invalidInput(
      `The wiki path "${raw}" is absolute; use a relative path such as architecture/payments.md`,
    );
  if (raw.includes('\\'))
    throw invalidInput(`The wiki path "${raw}" contains a backslash; separate folders with "/"`);
  if (/[\u0000-\u001f\u007f]/.test(raw)) throw invalidInput('The wiki path contains control characters');
  const segments = raw.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.some((s) => s === '..')) throw invalidInput(`The wiki path "${raw}" leaves the wiki ("..")`);
  if (segments.some((s) => s !== s.trim()))
    throw invalidInput(`The wiki path "${raw}" has a folder or file name with surrounding spaces`);
  if (segments.length === 0) throw invalidInput(`The wiki path "${raw}" names no page`);
  if (raw.endsWith('/'))
    throw invalidInput(
      `The wiki path "${raw}" is a folder; name a page such as ${segments.join('/')}/index.md`,
    );
  let path = segments.join('/');
  if (!path.toLowerCase().endsWith('.md')) path += '.md';
  if (path.length > MAX_WIKI_PATH)
    throw invalidInput(`The wiki path is ${path.length} characters; at most ${MAX_WIKI_PATH}`);
  return path;
}

/** A folder prefix for listing: '' for everything, otherwise normalized without a trailing slash. */
export function normalizeWikiPrefix(input: string | undefined): string {
  if (input === undefined || input.trim() === '' || input.trim() === '/' || input.trim() === '.') return '';
  const raw = input.trim().replace(/\/+$/, '');
  if (raw.startsWith('/') || raw.startsWith('~') || /^[A-Za-z]:/.test(raw))
    throw invalidInput(`The wiki folder "${input}" is absolute; use a relative folder such as architecture`);
  if (raw.includes('\\')) throw invalidInput(`The wiki folder "${input}" contains a backslash`);
  const segments = raw.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.some((s) => s === '..'))
    throw invalidInput(`The wiki folder "${input}" leaves the wiki ("..")`);
  const prefix = segments.join('/');
  if (prefix.length > MAX_WIKI_PATH)
    throw invalidInput(`The wiki folder is over ${MAX_WIKI_PATH} characters`);
  return prefix;
}

/** The page title: its first Markdown heading (outside code fences), else the file name. */
export function wikiTitle(path: string, content: string): string {
  let fenced = false;
  for (const line of content.split('\n')) {
    if (/^\s{0,3}(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const m = /^\s{0,3}#{1,6}[ \t]+(.+?)[ \t#]*$/.exec(line);
    if (m?.[1].trim()) return squash(m[1]).slice(0, 200);
  }
  return (path.split('/').at(-1) ?? path).replace(/\.md$/i, '');
}
