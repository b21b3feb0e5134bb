/**
 * A tiny TOML editor for one table: put, find or remove `[a.b]` (with its sub-tables `[a.b.*]`)
 * and leave every other byte of the file alone. Comments, formatting and key order of the rest of
 * the file survive because the file is never re-serialized: lines are scanned (tracking multi-line
 * strings and open brackets, so a `[` inside a value is never read as a header) and only the
 * table's own lines are replaced.
 *
 * A table Tapedeck writes is preceded by a marker comment, and appended after one blank line, so
 * removing it gives back the file as it was (a file without a final newline gets one).
 */
import { invalidInput } from './errors.js';

type LineKind = 'header' | 'array-header' | 'key' | 'blank' | 'comment' | 'continuation';

interface Line {
  start: number;
  /** Offset after the line's newline (or the end of the text). */
  end: number;
  kind: LineKind;
  /** Header path (`[a."b.c"]` → ['a', 'b.c']) or dotted key path. */
  path?: string[];
  /** Trimmed text. */
  text: string;
}

/** Split `a . "b.c" . 'd'` on dots outside quotes, unquoting each part. */
function splitDotted(s: string): string[] {
  const parts: string[] = [];
  let cur = '';
  let quote: string | null = null;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (quote) {
      if (ch === '\\' && quote === '"' && i + 1 < s.length) {
        cur += s[++i];
        continue;
      }
      if (ch === quote) quote = null;
      else cur += ch;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '.') {
      parts.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  parts.push(cur.trim());
  return parts;
}

interface ScanState {
  multi: '"""' | "'''" | null;
  depth: number;
}

/** Advance the string/bracket state over `s` (a value, or a continuation line). */
function scanValue(s: string, st: ScanState): void {
  for (let i = 0; i < s.length; i++) {
    if (st.multi) {
      if (st.multi === '"""' && s[i] === '\\') {
        i++;
        continue;
      }
      if (s.startsWith(st.multi, i)) {
        st.multi = null;
        i += 2;
      }
      continue;
    }
    const ch = s[i];
    if (ch === '#') return;
    if (ch === '"' || ch === "'") {
      const triple = ch.repeat(3);
      if (s.startsWith(triple, i)) {
        st.multi = triple as ScanState['multi'];
        i += 2;
        continue;
      }
      for (i++; i < s.length && s[i] !== ch; i++) if (ch === '"' && s[i] === '\\') i++;
      continue;
    }
    if (ch === '[' || ch === '{') st.depth++;
    else if (ch === ']' || ch === '}') st.depth = Math.max(0, st.depth - 1);
  }
}

/** The key of a `key = value` line and where its value starts. */
function keyOf(text: string): { key: string; valueAt: number } | null {
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === '\\' && quote === '"') i++;
      else if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '=') return { key: text.slice(0, i), valueAt: i + 1 };
  }
  return null;
}

function scanLines(text: string): Line[] {
  const lines: Line[] = [];
  const st: ScanState = { multi: null, depth: 0 };
  let pos = 0;
  while (pos < text.length) {
    const nl = text.indexOf('\n', pos);
    const end = nl === -1 ? text.length : nl + 1;
    const raw = text.slice(pos, nl === -1 ? text.length : nl).replace(/\r$/, '');
    const t = raw.trim();
    let line: Line;
    if (st.multi || st.depth > 0) {
      scanValue(raw, st);
      line = { start: pos, end, kind: 'continuation', text: t };
    } else if (t === '') line = { start: pos, end, kind: 'blank', text: t };
    else if (t.startsWith('#')) line = { start: pos, end, kind: 'comment', text: t };
    else if (t.startsWith('[[')) {
      const close = t.indexOf(']]');
      line = { start: pos, end, kind: 'array-header', text: t, path: splitDotted(t.slice(2, close)) };
    } else if (t.startsWith('[')) {
      const inner = t.slice(1, closingBracket(t));
      line = { start: pos, end, kind: 'header', text: t, path: splitDotted(inner) };
    } else {
      const k = keyOf(t);
      if (k) scanValue(t.slice(k.valueAt), st);
      line = { start: pos, end, kind: 'key', text: t, path: k ? splitDotted(k.key) : undefined };
    }
    lines.push(line);
    pos = end;
  }
  return lines;
}

/** Index of the `]` closing a header, skipping quoted parts. */
function closingBracket(t: string): number {
  let quote: string | null = null;
  for (let i = 1; i < t.length; i++) {
    const ch = t[i];
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === ']') return i;
  }
  return t.length;
}

const startsWith = (path: string[] | undefined, prefix: string[]) =>
  !!path && path.length >= prefix.length && prefix.every((p, i) => path[i] === p);

/** A table's lines: its header through its last key (trailing blanks and comments stay outside). */
interface Block {
  start: number;
  end: number;
}

function tableBlocks(lines: Line[], path: string[], marker?: string): Block[] {
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (l.kind !== 'header' && l.kind !== 'array-header') continue;
    if (!startsWith(l.path, path)) continue;
    let last = i;
    for (let j = i + 1; j < lines.length; j++) {
      const k = lines[j].kind;
      if (k === 'header' || k === 'array-header') break;
      if (k === 'key' || k === 'continuation') last = j;
    }
    const prev = lines[i - 1];
    const start = marker && prev?.kind === 'comment' && prev.text === marker ? prev.start : l.start;
    blocks.push({ start, end: lines[last].end });
  }
  return blocks;
}

/** Where the file defines `path` other than by its own header: dotted keys or an inline table. */
function otherDefinitions(lines: Line[], path: string[]): number[] {
  const found: number[] = [];
  let table: string[] = [];
  lines.forEach((l, i) => {
    if (l.kind === 'header' || l.kind === 'array-header') table = l.path ?? [];
    else if (l.kind === 'key' && l.path && table.length < path.length && startsWith(path, table)) {
      // `mcp_servers = {…}` at the root, `tapedeck = {…}` or `tapedeck.command = …` in [mcp_servers]
      const full = [...table, ...l.path];
      if (startsWith(full, path) || startsWith(path, full)) found.push(i + 1);
    }
  });
  return found;
}

/** A TOML basic string. */
export function tomlString(s: string): string {
  const body = s.replace(/[\\"\u0000-\u001f\u007f]/g, (c) => {
    if (c === '\\') return '\\\\';
    if (c === '"') return '\\"';
    if (c === '\n') return '\\n';
    if (c === '\t') return '\\t';
    if (c === '\r') return '\\r';
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
  return `"${body}"`;
}

const BARE_KEY = /^[A-Za-z0-9_-]+$/;
export const tomlKey = (k: string) => (BARE_KEY.test(k) ? k : tomlString(k));

export type TomlValue = string | string[] | Record<string, string>;

export function tomlValue(v: TomlValue): string {
  if (typeof v === 'string') return tomlString(v);
  if (Array.isArray(v)) return `[${v.map(tomlString).join(', ')}]`;
  const entries = Object.entries(v);
  return entries.length === 0
    ? '{}'
    : `{ ${entries.map(([k, x]) => `${tomlKey(k)} = ${tomlString(x)}`).join(', ')} }`;
}

/** The text of a table: optional marker comment, header, one `key = value` line per entry. */
export function renderTable(path: string[], values: Record<string, TomlValue>, marker?: string): string {
  const head = `[${path.map(tomlKey).join('.')}]`;
  const body = Object.entries(values).map(([k, v]) => `${tomlKey(k)} = ${tomlValue(v)}`);
  return [...(marker ? [marker] : []), head, ...body].join('\n') + '\n';
}

/** True when the file has a `[path]` table (or one of its sub-tables). */
export function hasTable(text: string, path: string[]): boolean {
  return tableBlocks(scanLines(text), path).length > 0;
}

function cut(text: string, blocks: Block[]): string {
  let out = text;
  for (const b of [...blocks].reverse()) out = out.slice(0, b.start) + out.slice(b.end);
  return out;
}

/**
 * Put `block` (from renderTable) as the table `path`: it replaces the first existing `[path]`
 * table in place (sub-tables of it are removed), or is appended after one blank line. Refuses,
 * naming the line, when the file defines the table with dotted keys or an inline table.
 */
export function putTable(text: string, path: string[], block: string, marker?: string): string {
  const lines = scanLines(text);
  const clash = otherDefinitions(lines, path);
  if (clash.length > 0)
    throw invalidInput(
      `${path.join('.')} is defined with dotted keys or an inline table (line ${clash.join(', ')}); ` +
        'change it to a [table] or remove it, then run the install again',
      { lines: clash },
    );
  const blocks = tableBlocks(lines, path, marker);
  if (blocks.length > 0) {
    const [first, ...rest] = blocks;
    const replaced = text.slice(0, first.start) + block + text.slice(first.end);
    const shift = block.length - (first.end - first.start);
    return cut(
      replaced,
      rest.map((b) => ({ start: b.start + shift, end: b.end + shift })),
    );
  }
  if (text === '') return block;
  return `${text}${text.endsWith('\n') ? '' : '\n'}\n${block}`;
}

/**
 * Remove the table `path` and its sub-tables (with the marker comment before it). When the table
 * was the end of the file, the blank line put before it goes too.
 */
export function removeTable(text: string, path: string[], marker?: string): string {
  const blocks = tableBlocks(scanLines(text), path, marker);
  if (blocks.length === 0) return text;
  const atEnd = text.slice(blocks[blocks.length - 1].end).trim() === '';
  let out = cut(text, blocks);
  if (atEnd) {
    out = out.replace(/\n[ \t]*\n[ \t]*$/, '\n');
    if (out.trim() === '') out = '';
  }
  return out;
}
