/**
 * Validation and normalization of memory input, shared by add, update, supersede, list and search.
 * Every check throws INVALID_INPUT naming the field and the problem; nothing is written before
 * all of them pass.
 */
import { parseDateBound } from '../core/dates.js';
import { invalidInput } from '../core/errors.js';
import {
  isUnitType,
  MEMORY_STATUSES,
  type MemoryStatus,
  threadRef,
  UNIT_TYPES,
  type UnitType,
} from '../core/memory.js';
import { isAbsolutePath, normalizeProjectPath } from '../core/paths.js';
import { redact } from '../core/redact.js';
import { squash, titleFrom } from '../core/text.js';

export const MAX_CONTENT_CHARS = 20_000;
export const MAX_TITLE_CHARS = 200;
export const MAX_LABELS = 32;
export const MAX_LABEL_CHARS = 64;
export const MAX_SOURCE_CHARS = 2_000;

const LABEL_RE = /^[\p{L}\p{N}][\p{L}\p{N}_.:/+#-]*$/u;

/** Content: non-empty, at most 20,000 characters; secrets redacted. */
export function cleanContent(content: unknown): string {
  if (typeof content !== 'string' || content.trim() === '') throw invalidInput('The memory content is empty');
  const text = content.trim();
  if (text.length > MAX_CONTENT_CHARS)
    throw invalidInput(
      `The memory content is ${text.length.toLocaleString('en-US')} characters; the limit is ${MAX_CONTENT_CHARS.toLocaleString('en-US')} (split it into several memories)`,
    );
  return redact(text).text;
}

/** Title: one line, at most 200 characters; derived from the content when missing. */
export function cleanTitle(title: unknown, content: string): string {
  if (title === undefined || title === null || (typeof title === 'string' && title.trim() === ''))
    return titleFrom(content, 80);
  if (typeof title !== 'string') throw invalidInput('The title must be text');
  const t = squash(title);
  if (t.length > MAX_TITLE_CHARS) throw invalidInput(`The title is over ${MAX_TITLE_CHARS} characters`);
  return redact(t).text;
}

export function cleanType(type: unknown, fallback: UnitType = 'fact'): UnitType {
  if (type === undefined || type === null || type === '') return fallback;
  const t = String(type).trim().toLowerCase();
  if (!isUnitType(t)) throw invalidInput(`Unknown memory type "${type}"; known: ${UNIT_TYPES.join(', ')}`);
  return t;
}

/** Labels: comma-separated or repeated, lowercased, deduplicated; letters, digits and _.:/+#- only. */
export function cleanLabels(labels: unknown): string[] {
  if (labels === undefined || labels === null) return [];
  const raw = (Array.isArray(labels) ? labels : [labels]).flatMap((l) => String(l).split(','));
  const out: string[] = [];
  for (const r of raw) {
    const l = r.trim().toLowerCase();
    if (l === '') continue;
    if (l.length > MAX_LABEL_CHARS)
      throw invalidInput(`The label "${l.slice(0, 20)}…" is over ${MAX_LABEL_CHARS} characters`);
    if (!LABEL_RE.test(l))
      throw invalidInput(
        `Invalid label "${l}": use letters, digits and _ . : / + # - (no spaces), e.g. ci-cd`,
      );
    if (!out.includes(l)) out.push(l);
  }
  if (out.length > MAX_LABELS) throw invalidInput(`Too many labels (${out.length}); at most ${MAX_LABELS}`);
  return out;
}

export function mergeLabels(a: readonly string[], b: readonly string[]): string[] {
  const out = [...a];
  for (const l of b) if (!out.includes(l)) out.push(l);
  return out.slice(0, MAX_LABELS);
}

/** A number in 0..1 (importance, confidence). Strings are read as numbers. */
export function cleanUnit(name: string, value: unknown, fallback: number): number {
  if (value === undefined || value === null || value === '') return fallback;
  const n = typeof value === 'number' ? value : Number(String(value).trim());
  if (!Number.isFinite(n) || n < 0 || n > 1)
    throw invalidInput(`${name} must be a number from 0 to 1, got "${value}"`);
  return n;
}

/** A project: an absolute directory, trailing separators dropped. */
export function cleanProject(project: unknown): string | null {
  if (project === undefined || project === null || project === '') return null;
  if (typeof project !== 'string' || !isAbsolutePath(project.trim()))
    throw invalidInput(`The project must be an absolute directory, got "${project}"`);
  return normalizeProjectPath(project);
}

/** `A-B`, `A` or [A, B] → inclusive step range. */
export function parseSteps(steps: unknown): [number, number] {
  let a: number;
  let b: number;
  if (Array.isArray(steps) && steps.length === 2) [a, b] = steps.map(Number);
  else if (typeof steps === 'number') a = b = steps;
  else {
    const m = /^\s*(-?\d+)\s*(?:(?:-|\.\.)\s*(-?\d+)\s*)?$/.exec(String(steps));
    if (!m) throw invalidInput(`Invalid step range "${steps}": use A-B (e.g. 12-18) or one step number`);
    a = Number(m[1]);
    b = m[2] === undefined ? a : Number(m[2]);
  }
  if (!Number.isInteger(a) || !Number.isInteger(b))
    throw invalidInput(`Invalid step range "${steps}": steps are whole numbers`);
  if (b < a) throw invalidInput(`Invalid step range "${steps}": the first step is after the last`);
  return [a, b];
}

export interface ProvenanceInput {
  thread?: string;
  steps?: string | number | [number, number];
  source?: string;
}

/** Provenance fields checked for shape (the thread's existence is checked by the service). */
export function cleanProvenance(input: ProvenanceInput): {
  thread: string | null;
  range: [number, number] | null;
  source: string | null;
} {
  let thread: string | null = null;
  let range: [number, number] | null = null;
  if (input.thread !== undefined && input.thread !== null && String(input.thread).trim() !== '') {
    const ref = threadRef(String(input.thread));
    if (!ref.thread) throw invalidInput(`Invalid thread "${input.thread}"`);
    thread = ref.thread;
    if (ref.step !== undefined) range = [ref.step, ref.step];
  }
  if (input.steps !== undefined && input.steps !== null && input.steps !== '') {
    if (!thread) throw invalidInput('A step range needs a thread: pass --thread ID with --steps A-B');
    range = parseSteps(input.steps);
  }
  let source: string | null = null;
  if (input.source !== undefined && input.source !== null && String(input.source).trim() !== '') {
    const s = String(input.source).trim();
    if (s.length > MAX_SOURCE_CHARS) throw invalidInput(`The source is over ${MAX_SOURCE_CHARS} characters`);
    source = redact(s).text;
  }
  return { thread, range, source };
}

/** Event range from people's dates; the end is inclusive of its day. */
export function cleanEvent(
  start: unknown,
  end: unknown,
  now: number,
): { event_start: string | null; event_end: string | null } {
  const read = (v: unknown, name: string, isEnd: boolean) => {
    if (v === undefined || v === null || v === '') return null;
    try {
      return parseDateBound(String(v), { now, end: isEnd });
    } catch (e) {
      throw invalidInput(`${name}: ${(e as Error).message}`);
    }
  };
  const event_start = read(start, 'event start', false);
  const event_end = read(end, 'event end', true);
  if (event_start && event_end && event_end < event_start)
    throw invalidInput('The event ends before it starts');
  return { event_start, event_end };
}

/** A date bound for a filter (`--as-of`, `--since`, `--until`), named in the error. */
export function cleanDate(name: string, v: unknown, now: number, end: boolean): string | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  try {
    return parseDateBound(String(v), { now, end });
  } catch (e) {
    throw invalidInput(`${name}: ${(e as Error).message}`);
  }
}

export function cleanTypes(types: unknown): UnitType[] | undefined {
  if (types === undefined || types === null) return undefined;
  const list = (Array.isArray(types) ? types : [types])
    .flatMap((t) => String(t).split(','))
    .filter((t) => t.trim());
  return list.length ? [...new Set(list.map((t) => cleanType(t)))] : undefined;
}

export function cleanStatuses(status: unknown): MemoryStatus[] | undefined {
  if (status === undefined || status === null || status === '') return undefined;
  const list = (Array.isArray(status) ? status : [status])
    .flatMap((s) => String(s).split(','))
    .map((s) => s.trim());
  if (list.includes('all')) return [...MEMORY_STATUSES];
  for (const s of list)
    if (!(MEMORY_STATUSES as readonly string[]).includes(s))
      throw invalidInput(`Unknown status "${s}"; known: ${MEMORY_STATUSES.join(', ')}, all`);
  return list as MemoryStatus[];
}

export function cleanLimit(value: unknown, fallback: number, max: number): number {
  if (value === undefined || value === null || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw invalidInput(`limit must be a whole number ≥ 1, got "${value}"`);
  return Math.min(n, max);
}
