/**
 * Editing a host's JSON settings without clobbering them: parse strictly (a file Tapedeck cannot
 * parse — comments, syntax errors — is never rewritten), change only Tapedeck's keys, and write back
 * with the file's own indentation and final newline, so a file the host formatted comes back
 * byte for byte once Tapedeck's keys are removed again.
 */
import { invalidInput } from '../../core/errors.js';

export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

export function parseJsonObject(text: string | null, path: string): Json {
  if (text === null || text.trim() === '') return {};
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw invalidInput(
      `${path} is not plain JSON (${(e as Error).message}); Tapedeck does not rewrite it. Fix it, or add Tapedeck's entries by hand (see tapedeck install --dry-run --json)`,
    );
  }
  if (!isObject(v)) throw invalidInput(`${path} is not a JSON object; Tapedeck does not rewrite it`);
  return v;
}

function indentOf(text: string | null): string | number {
  const m = text ? /^[{[][ \t]*\r?\n([ \t]+)\S/.exec(text) : null;
  return m ? m[1] : 2;
}

/** `value` as JSON shaped like `like` (its indentation and whether it ends with a newline). */
export function formatJson(value: unknown, like: string | null): string {
  const out = JSON.stringify(value, null, indentOf(like));
  const newline = like === null || like === '' || /\n$/.test(like);
  return newline ? `${out}\n` : out;
}

/** Apply `edit` to a JSON object file's text; null when the result is an empty object (remove the file). */
export function editJson(
  text: string | null,
  path: string,
  edit: (o: Json) => void,
  { keepEmpty = false } = {},
): string | null {
  const o = parseJsonObject(text, path);
  const before = JSON.stringify(o);
  edit(o);
  if (JSON.stringify(o) === before) return text;
  if (!keepEmpty && Object.keys(o).length === 0) return null;
  return formatJson(o, text);
}

/** Set o[k1][k2]… = value, creating objects on the way. */
export function setPath(o: Json, keys: string[], value: unknown): void {
  let cur = o;
  for (const k of keys.slice(0, -1)) {
    if (!isObject(cur[k])) cur[k] = {};
    cur = cur[k] as Json;
  }
  cur[keys[keys.length - 1]] = value;
}

/** Delete o[k1][k2]…, then drop the objects it leaves empty. */
export function deletePath(o: Json, keys: string[]): void {
  const chain: Json[] = [o];
  for (const k of keys.slice(0, -1)) {
    const next = chain[chain.length - 1][k];
    if (!isObject(next)) return;
    chain.push(next);
  }
  delete chain[chain.length - 1][keys[keys.length - 1]];
  for (let i = chain.length - 1; i > 0; i--) {
    if (Object.keys(chain[i]).length > 0) break;
    delete chain[i - 1][keys[i - 1]];
  }
}
