/**
 * A small, strict reader for the YAML front matter of SKILL.md files. It accepts what skill files
 * actually use — `key: value` lines, quoted strings, simple lists (`- item` or `[a, b]`) and
 * one-level maps of scalars — and rejects the rest with the line and the problem, rather than
 * guessing: a value another tool's real YAML parser would read differently is an error here too
 * (an unquoted `: ` inside a value, a block scalar, a value starting with a YAML indicator).
 *
 * The file is kept as two raw strings, `head` (from the first byte through the closing `---` line)
 * and `body` (everything after), so a skill renders back to exactly the bytes it was read from.
 */
import { invalidInput } from './errors.js';

export type FrontMatterValue = string | string[] | Record<string, string>;

export interface FrontMatter {
  /** Raw text from the start of the file through the closing `---` line (its line break included). */
  head: string;
  /** Everything after the closing `---` line, untouched. */
  body: string;
  /** Parsed keys in file order. */
  fields: Record<string, FrontMatterValue>;
}

const KEY_RE = /^([A-Za-z_][A-Za-z0-9_.-]*)[ \t]*:(?:[ \t]+(.*))?$/;
const FENCE_RE = /^---[ \t]*$/;
const INDICATORS = new Set(['&', '*', '!', '%', '@', '`', '{', '}', ']', ',', '?', '|', '>']);

/** Split `text` into lines, keeping each line's own break so offsets stay exact. */
function splitLines(text: string): { line: string; end: number }[] {
  const out: { line: string; end: number }[] = [];
  let start = 0;
  while (start < text.length) {
    const nl = text.indexOf('\n', start);
    const end = nl === -1 ? text.length : nl + 1;
    out.push({ line: text.slice(start, nl === -1 ? end : nl).replace(/\r$/, ''), end });
    start = end;
  }
  return out;
}

class LineError extends Error {}

function parseDoubleQuoted(raw: string): { value: string; rest: string } {
  let out = '';
  for (let i = 1; i < raw.length; i++) {
    const c = raw[i];
    if (c === '"') return { value: out, rest: raw.slice(i + 1) };
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = raw[++i];
    const simple: Record<string, string> = {
      '"': '"',
      '\\': '\\',
      '/': '/',
      b: '\b',
      f: '\f',
      n: '\n',
      r: '\r',
      t: '\t',
      '0': '\0',
    };
    if (e !== undefined && e in simple) out += simple[e];
    else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(raw.slice(i + 1, i + 5))) {
      out += String.fromCharCode(Number.parseInt(raw.slice(i + 1, i + 5), 16));
      i += 4;
    } else throw new LineError(`unsupported escape "\\${e ?? ''}" in a double-quoted string`);
  }
  throw new LineError('unterminated double-quoted string');
}

function parseSingleQuoted(raw: string): { value: string; rest: string } {
  let out = '';
  for (let i = 1; i < raw.length; i++) {
    if (raw[i] !== "'") {
      out += raw[i];
      continue;
    }
    if (raw[i + 1] === "'") {
      out += "'";
      i++;
      continue;
    }
    return { value: out, rest: raw.slice(i + 1) };
  }
  throw new LineError('unterminated single-quoted string');
}

/** After a closing quote only blanks or a ` # comment` may follow. */
function checkTrailer(rest: string): void {
  if (rest.trim() !== '' && !/^\s+#/.test(rest))
    throw new LineError(`unexpected text after the closing quote: "${rest.trim()}"`);
}

/** One scalar: quoted, or plain (a ` #` starts a comment, as in YAML). */
export function parseScalar(raw: string): string {
  const s = raw.trim();
  if (s.startsWith('"')) {
    const { value, rest } = parseDoubleQuoted(s);
    checkTrailer(rest);
    return value;
  }
  if (s.startsWith("'")) {
    const { value, rest } = parseSingleQuoted(s);
    checkTrailer(rest);
    return value;
  }
  if (s.startsWith('|') || s.startsWith('>'))
    throw new LineError('block scalars (| or >) are not supported; write the value on one line');
  if (s.startsWith('[') || s.startsWith('{')) throw new LineError('nested lists and maps are not supported');
  if (s.startsWith('- ') || s === '-')
    throw new LineError('a list item cannot follow a key on the same line');
  if (s.startsWith('#')) return '';
  if (INDICATORS.has(s[0] ?? '')) throw new LineError(`a value starting with "${s[0]}" must be quoted`);
  const plain = s.replace(/\s+#.*$/, '').trimEnd();
  if (/:(\s|$)/.test(plain)) throw new LineError('the value contains ": "; put it in quotes');
  return plain;
}

/** `[a, "b, c", d]` */
function parseInlineList(raw: string): string[] {
  const s = raw.trim();
  const close = s.lastIndexOf(']');
  if (close === -1) throw new LineError('unterminated inline list (missing "]")');
  checkTrailer(s.slice(close + 1));
  const inner = s.slice(1, close);
  const items: string[] = [];
  let i = 0;
  while (i < inner.length) {
    while (inner[i] === ' ' || inner[i] === '\t') i++;
    if (i >= inner.length) break;
    let item: string;
    let rest: string;
    if (inner[i] === '"' || inner[i] === "'") {
      ({ value: item, rest } =
        inner[i] === '"' ? parseDoubleQuoted(inner.slice(i)) : parseSingleQuoted(inner.slice(i)));
      i = inner.length - rest.length;
      while (inner[i] === ' ' || inner[i] === '\t') i++;
    } else {
      const comma = inner.indexOf(',', i);
      const end = comma === -1 ? inner.length : comma;
      const text = inner.slice(i, end).trim();
      if (/[[\]{}"']/.test(text))
        throw new LineError('nested lists, maps or stray quotes inside an inline list');
      item = parseScalar(text);
      i = end;
    }
    items.push(item);
    if (i < inner.length && inner[i] !== ',') throw new LineError('expected "," between inline list items');
    i++;
    if (i === inner.length) throw new LineError('trailing "," in an inline list');
  }
  return items;
}

/** Parse the lines between the fences into fields. `firstLine` is the 1-based line of lines[0]. */
function parseFields(lines: string[], firstLine: number, where: string): Record<string, FrontMatterValue> {
  const fields: Record<string, FrontMatterValue> = {};
  let open: { key: string; indent: number; kind: 'list' | 'map' | null } | null = null;
  lines.forEach((line, i) => {
    const at = `${where}: line ${firstLine + i}`;
    try {
      if (line.trim() === '' || line.trimStart().startsWith('#')) return;
      const indent = line.length - line.trimStart().length;
      if (/^[ ]*\t/.test(line)) throw new LineError('tabs are not allowed for indentation');
      if (indent === 0) {
        const m = KEY_RE.exec(line);
        if (!m) throw new LineError(`expected "key: value", got "${line.slice(0, 60)}"`);
        const key = m[1];
        if (Object.hasOwn(fields, key)) throw new LineError(`duplicate key "${key}"`);
        const raw = m[2]?.trim() ?? '';
        if (raw === '' || raw.startsWith('#')) {
          fields[key] = '';
          open = { key, indent: -1, kind: null };
        } else {
          fields[key] = raw.startsWith('[') ? parseInlineList(raw) : parseScalar(raw);
          open = null;
        }
        return;
      }
      const parent = open as { key: string; indent: number; kind: 'list' | 'map' | null } | null;
      if (!parent) throw new LineError('unexpected indentation');
      if (parent.indent !== -1 && indent !== parent.indent)
        throw new LineError('inconsistent indentation (nested structures are not supported)');
      parent.indent = indent;
      const content = line.slice(indent);
      if (content === '-' || content.startsWith('- ')) {
        if (parent.kind === 'map') throw new LineError(`"${parent.key}" mixes list items and keys`);
        parent.kind = 'list';
        const item = content.slice(1).trim();
        if (KEY_RE.test(item) && !/^["']/.test(item)) throw new LineError('lists of maps are not supported');
        const list = (Array.isArray(fields[parent.key]) ? fields[parent.key] : []) as string[];
        list.push(parseScalar(item));
        fields[parent.key] = list;
        return;
      }
      const m = KEY_RE.exec(content);
      if (!m) throw new LineError(`expected "- item" or "key: value" under "${parent.key}"`);
      if (parent.kind === 'list') throw new LineError(`"${parent.key}" mixes list items and keys`);
      parent.kind = 'map';
      const map = (typeof fields[parent.key] === 'object' ? fields[parent.key] : {}) as Record<
        string,
        string
      >;
      if (Object.hasOwn(map, m[1])) throw new LineError(`duplicate key "${parent.key}.${m[1]}"`);
      if (!m[2] || m[2].trim() === '') throw new LineError('nested structures are not supported');
      map[m[1]] = parseScalar(m[2]);
      fields[parent.key] = map;
    } catch (e) {
      if (e instanceof LineError)
        throw invalidInput(`${at}: ${e.message}`, { file: where, line: firstLine + i });
      throw e;
    }
  });
  return fields;
}

/**
 * Read a SKILL.md-style document. `where` names the file in error messages. Throws INVALID_INPUT
 * naming the file, the line when there is one, and the problem.
 */
export function parseFrontMatter(text: string, where = 'SKILL.md'): FrontMatter {
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const lines = splitLines(text.slice(bom.length));
  if (lines.length === 0 || !FENCE_RE.test(lines[0].line))
    throw invalidInput(
      `${where}: no front matter; the file must start with a "---" line, then "name:" and "description:", then "---"`,
      {
        file: where,
      },
    );
  const close = lines.findIndex((l, i) => i > 0 && FENCE_RE.test(l.line));
  if (close === -1)
    throw invalidInput(`${where}: the front matter is not closed; add a "---" line after "description:"`, {
      file: where,
    });
  const headEnd = bom.length + lines[close].end;
  const fields = parseFields(
    lines.slice(1, close).map((l) => l.line),
    2,
    where,
  );
  return { head: text.slice(0, headEnd), body: text.slice(headEnd), fields };
}

const YAML_WORDS = new Set(['true', 'false', 'yes', 'no', 'on', 'off', 'null', '~', 'y', 'n']);

/** A value as YAML reads it back unchanged: plain when that is safe, otherwise double-quoted. */
export function yamlScalar(value: string): string {
  const plainSafe =
    /^[\p{L}\p{N}(]/u.test(value) &&
    !/[\n\r\t"\\]/.test(value) &&
    !/:(\s|$)/.test(value) &&
    !/\s#/.test(value) &&
    value === value.trim() &&
    !YAML_WORDS.has(value.toLowerCase()) &&
    !/^[-+.\d][\d_.eE+-]*$/.test(value);
  return plainSafe ? value : JSON.stringify(value);
}

/** Replace the top-level `key:` line of a head (which must hold a one-line scalar) with a new value. */
export function replaceHeadScalar(head: string, key: string, value: string): string {
  const lines = head.split('\n');
  const i = lines.findIndex((l, n) => n > 0 && KEY_RE.exec(l.replace(/\r$/, ''))?.[1] === key);
  const line = `${key}: ${yamlScalar(value)}`;
  if (i === -1) {
    // Before the closing fence (the last non-empty line).
    const close = lines.findLastIndex((l) => FENCE_RE.test(l.replace(/\r$/, '')));
    const cr = lines[close].endsWith('\r') ? '\r' : '';
    lines.splice(close, 0, `${line}${cr}`);
    return lines.join('\n');
  }
  lines[i] = `${line}${lines[i].endsWith('\r') ? '\r' : ''}`;
  return lines.join('\n');
}
