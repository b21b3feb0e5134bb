/**
 * Editing a host's JSON settings without clobbering them. The file is read as the hosts read it
 * (JSON with comments and trailing commas); Tapedeck's change is worked out on the parsed value,
 * then applied to the text as the smallest set of insertions and removals (`jsonc-parser`'s
 * modify/applyEdits), so comments, compact or hand formatting and key order outside Tapedeck's own
 * keys stay exactly as they were — and removing what Tapedeck added gives the file back byte for
 * byte. A file with a real syntax error is never rewritten.
 */
import * as jsonc from 'jsonc-parser';
import { invalidInput } from '../../core/errors.js';

type Edit = jsonc.Edit;
type JsonPath = (string | number)[];

export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

const PARSE_OPTIONS = { allowTrailingComma: true, disallowComments: false } as const;

/** The object in a settings file (comments allowed); "" or no file is an empty object. */
export function parseJsonObject(text: string | null, path: string): Json {
  if (text === null || text.trim() === '') return {};
  const errors: jsonc.ParseError[] = [];
  const v: unknown = jsonc.parse(text, errors, PARSE_OPTIONS);
  if (errors.length > 0) {
    const { line, column } = lineColumn(text, errors[0].offset);
    throw invalidInput(
      `${path} is not valid JSON (${jsonc.printParseErrorCode(errors[0].error)} at line ${line}, column ${column}); Tapedeck does not rewrite it. Fix it, or add Tapedeck's entries by hand (see tapedeck install --dry-run --json)`,
    );
  }
  if (!isObject(v)) throw invalidInput(`${path} is not a JSON object; Tapedeck does not rewrite it`);
  return v;
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const nl = before.lastIndexOf('\n');
  return { line: before.split('\n').length, column: offset - nl };
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

/**
 * Apply `edit` to a JSON object file's text, changing only the text of what `edit` changed;
 * null when the result is an empty object (remove the file).
 */
export function editJson(
  text: string | null,
  path: string,
  edit: (o: Json) => void,
  { keepEmpty = false } = {},
): string | null {
  const before = parseJsonObject(text, path);
  const after = structuredClone(before);
  edit(after);
  if (equal(before, after)) return text;
  if (!keepEmpty && Object.keys(after).length === 0) return null;
  if (text === null || text.trim() === '') return formatJson(after, text);
  const out = sync(text, [], before, after, styleOf(text));
  // The text edits must mean exactly the value wanted; if they somehow do not, a rewrite of the
  // whole file is still correct (it only loses the formatting).
  const errors: jsonc.ParseError[] = [];
  const check = jsonc.parse(out, errors, PARSE_OPTIONS);
  return errors.length === 0 && equal(check, after) ? out : formatJson(after, text);
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

const equal = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

interface Style {
  /** One level of indentation, as the file writes it. */
  unit: string;
  eol: string;
}

function styleOf(text: string): Style {
  const unit = indentOf(text);
  return {
    unit: typeof unit === 'number' ? ' '.repeat(unit) : unit,
    eol: text.includes('\r\n') ? '\r\n' : '\n',
  };
}

/** Turn the text at `path` (whose value is `a`) into `b`, touching only what differs. */
function sync(text: string, path: JsonPath, a: unknown, b: unknown, style: Style): string {
  if (equal(a, b)) return text;
  if (isObject(a) && isObject(b)) {
    for (const k of Object.keys(a)) if (!(k in b)) text = change(text, [...path, k], undefined, style);
    for (const k of Object.keys(b))
      text = k in a ? sync(text, [...path, k], a[k], b[k], style) : change(text, [...path, k], b[k], style);
    return text;
  }
  if (Array.isArray(a) && Array.isArray(b)) return syncArray(text, path, a, b, style);
  return change(text, path, b, style);
}

/**
 * Arrays by their longest common run of equal elements: the rest are inserted, removed, or (an
 * object or array in the same place on both sides) edited in place. Worked from the end so the
 * indexes still to do keep pointing at the original elements.
 */
function syncArray(text: string, path: JsonPath, a: unknown[], b: unknown[], style: Style): string {
  const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++)
      lcs[i][j] = equal(a[i - 1], b[j - 1]) ? lcs[i - 1][j - 1] + 1 : Math.max(lcs[i - 1][j], lcs[i][j - 1]);
  const sameKind = (x: unknown, y: unknown) =>
    (isObject(x) && isObject(y)) || (Array.isArray(x) && Array.isArray(y));
  let i = a.length;
  let j = b.length;
  while (i > 0 || j > 0) {
    if (i > 0 && j > 0 && equal(a[i - 1], b[j - 1])) {
      i--;
      j--;
    } else if (i > 0 && j > 0 && lcs[i - 1][j - 1] === lcs[i][j] && sameKind(a[i - 1], b[j - 1])) {
      text = sync(text, [...path, i - 1], a[i - 1], b[j - 1], style);
      i--;
      j--;
    } else if (j > 0 && (i === 0 || lcs[i][j - 1] >= lcs[i - 1][j])) {
      text = change(text, [...path, i], b[j - 1], style, true);
      j--;
    } else {
      text = change(text, [...path, i - 1], undefined, style);
      i--;
    }
  }
  return text;
}

/** One insertion, replacement or removal (value undefined), laid out like its neighbours. */
function change(text: string, path: JsonPath, value: unknown, style: Style, insert = false): string {
  if (value === undefined && typeof path.at(-1) === 'number') return removeElement(text, path);
  const edits = jsonc.modify(text, path, value, { isArrayInsertion: insert });
  if (value === undefined) return jsonc.applyEdits(text, edits);
  return jsonc.applyEdits(
    text,
    edits.map((e) => layout(text, path, value, e, style)),
  );
}

/**
 * Remove one array element the way jsonc-parser removes a property — from the end of the one
 * before it (or up to the one after it, for the first) — so it undoes an insertion exactly.
 * (jsonc-parser's own removal of a last element assumes a formatter runs after it.)
 */
function removeElement(text: string, path: JsonPath): string {
  const root = jsonc.parseTree(text, [], PARSE_OPTIONS);
  const array = root && jsonc.findNodeAtLocation(root, path.slice(0, -1));
  const items = array?.children ?? [];
  const k = path.at(-1) as number;
  if (!array || k >= items.length) return text;
  const item = items[k];
  let from: number;
  let to: number;
  if (items.length === 1) [from, to] = [array.offset + 1, array.offset + array.length - 1];
  else if (k > 0) [from, to] = [items[k - 1].offset + items[k - 1].length, item.offset + item.length];
  else [from, to] = [item.offset, items[1].offset];
  return text.slice(0, from) + text.slice(to);
}

/** The whitespace that starts the line holding `offset`. */
function lineIndent(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))?.[0] ?? '';
}

/**
 * jsonc-parser writes new content compactly. In a container laid out one member per line, put
 * the new member on its own line at its neighbours' indentation, pretty-printed the same way;
 * a compact container stays compact.
 */
function layout(text: string, path: JsonPath, value: unknown, e: Edit, style: Style): Edit {
  const compact = JSON.stringify(value);
  const at = e.content.lastIndexOf(compact);
  if (at === -1) return e;
  const root = jsonc.parseTree(text, [], PARSE_OPTIONS);
  const container = root && jsonc.findNodeAtLocation(root, path.slice(0, -1));
  if (!container) return e;
  const prefix = e.content.slice(0, at);
  const suffix = e.content.slice(at + compact.length);
  const { eol, unit } = style;
  const members = container.children ?? [];
  if (e.length > 0 && !prefix.startsWith(',')) {
    // a value replaced in place: indented from the line it starts on, or compact in a compact container
    if (!text.slice(container.offset, container.offset + container.length).includes('\n')) return e;
    const indent = lineIndent(text, e.offset);
    return { ...e, content: `${prefix}${pretty(value, unit, indent, eol)}${suffix}` };
  }
  if (members.length === 0) {
    const inner = text.slice(container.offset + 1, container.offset + container.length - 1);
    const multiline = container === root || inner.includes('\n') || text.trim().includes('\n');
    if (!multiline) return e;
    const outer = lineIndent(text, container.offset);
    const indent = outer + unit;
    return {
      offset: container.offset + 1,
      length: container.length - 2,
      content: `${eol}${indent}${prefix}${pretty(value, unit, indent, eol)}${eol}${outer}`,
    };
  }
  const first = members[0];
  // a compact container (its first member on the opening line) stays compact
  if (!text.slice(container.offset, first.offset).includes('\n')) return e;
  const indent = lineIndent(text, first.offset);
  const body = pretty(value, unit, indent, eol);
  if (prefix.startsWith(',')) return { ...e, content: `,${eol}${indent}${prefix.slice(1)}${body}${suffix}` };
  // before the first member: the new one takes its line, the old first moves down
  return { offset: first.offset, length: 0, content: `${prefix}${body},${eol}${indent}` };
}

function pretty(value: unknown, unit: string, indent: string, eol: string): string {
  return JSON.stringify(value, null, unit).replace(/\n/g, `${eol}${indent}`);
}
