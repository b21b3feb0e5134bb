/**
 * How an edit or a search call reads as step text, shared by the adapters (not an adapter).
 *
 * An edit is rendered as the lines it changed (`-old`, `+new`, with `@@` hunk headers that name a
 * function and file headers), because "where did we change the retry delay" is answered by the
 * edit itself, and the tool's output ("Success. Updated the following files") says nothing.
 * Unchanged context lines are dropped (they match every question about the file); binary and
 * minified lines are left out with a marker (nothing a person searches for, and they would fill
 * the cap); the whole body is capped at line boundaries with a marker saying how much was cut.
 * Secrets are not handled here: ingest redacts every step's text before it is stored.
 */

/** Most characters of diff kept in one step (the step text cap in ingest is larger). */
export const MAX_EDIT_CHARS = 4_000;

/** A line this long with almost no spaces is minified code or an encoded blob. */
const MINIFIED_MIN_LENGTH = 400;
const MINIFIED_MAX_SPACE_SHARE = 0.06;

/** Control characters other than tab / newline / carriage return mark binary content. */
const BINARY = /[\u0000-\u0008\u000e-\u001f\ufffd]/g;

/** True when text holds NUL or many control / replacement characters (an image, an archive…). */
export function isBinaryText(text: string): boolean {
  if (text.includes('\u0000')) return true;
  const sample = text.slice(0, 4_000);
  const odd = sample.match(BINARY)?.length ?? 0;
  return odd > 0 && odd / sample.length > 0.01;
}

function isMinifiedLine(line: string): boolean {
  if (line.length < MINIFIED_MIN_LENGTH) return false;
  const spaces = line.match(/\s/g)?.length ?? 0;
  return spaces / line.length < MINIFIED_MAX_SPACE_SHARE;
}

/**
 * Diff lines made readable and bounded: minified lines replaced by a marker, the whole cut at a
 * line boundary once `max` characters are reached, with `[… N more changed lines not indexed]`.
 */
export function boundedDiff(lines: readonly string[], max = MAX_EDIT_CHARS): string {
  const out: string[] = [];
  let used = 0;
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!.replace(/\s+$/, '');
    if (isMinifiedLine(line))
      line = `${line.slice(0, 1)}[minified line of ${line.length} characters left out]`;
    if (used + line.length + 1 > max && out.length > 0) {
      out.push(`[… ${lines.length - i} more changed lines not indexed]`);
      break;
    }
    out.push(line.length > max ? `${line.slice(0, max)}…` : line);
    used += line.length + 1;
  }
  return out.join('\n');
}

function splitLines(text: string): string[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * The changed region of a search-and-replace edit as `-` / `+` lines: the lines shared at the start
 * and at the end of `before` and `after` are context the agent quoted to anchor the edit, not the
 * change, so they are dropped.
 */
export function replacementLines(before: string, after: string): string[] {
  if (isBinaryText(before) || isBinaryText(after)) return ['[binary content left out]'];
  const a = before === '' ? [] : splitLines(before);
  const b = after === '' ? [] : splitLines(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end])
    end++;
  const removed = a.slice(start, a.length - end).map((l) => `-${l}`);
  const added = b.slice(start, b.length - end).map((l) => `+${l}`);
  return [...removed, ...added];
}

/** A whole new file's content as `+` lines (binary content left out). */
export function contentLines(content: string): string[] {
  if (isBinaryText(content)) return ['[binary content left out]'];
  return content === '' ? [] : splitLines(content).map((l) => `+${l}`);
}

/**
 * `${head}` followed by the bounded diff on the next lines, or just `head` when the edit changed
 * nothing readable.
 */
export function editText(head: string, lines: readonly string[]): string {
  const body = boundedDiff(lines);
  return body.trim() === '' ? head : `${head}\n${body}`;
}

/**
 * What a search call acted on, the way a command line reads: the pattern, then where and which
 * files (`retryDelay src *.ts`). Undefined when there is no pattern.
 */
export function searchTarget(pattern: unknown, ...where: unknown[]): string | undefined {
  if (typeof pattern !== 'string' || pattern.trim() === '') return undefined;
  const rest = where.flatMap((w) =>
    typeof w === 'string' ? [w] : Array.isArray(w) ? w.filter((x): x is string => typeof x === 'string') : [],
  );
  return [pattern, ...rest].filter((p) => p.trim() !== '').join(' ');
}
