/**
 * A memory written as a file: optional front matter (title, type, labels, importance, confidence,
 * project, thread, steps, source, event_start, event_end) and the content as the body. The keys a
 * rendered memory carries but nobody sets by hand (id, status, dates, link, …) are accepted and
 * ignored, so `cat` → edit → `write` works; any other key is an error naming the known ones.
 */
import { invalidInput } from '../../core/errors.js';
import { type FrontMatterValue, parseFrontMatter } from '../../core/front-matter.js';

export interface MemoryFileFields {
  content: string;
  title?: string;
  type?: string;
  labels?: string[];
  importance?: string;
  confidence?: string;
  project?: string;
  thread?: string;
  steps?: string;
  source?: string;
  eventStart?: string;
  eventEnd?: string;
}

const EDITABLE = [
  'title',
  'type',
  'labels',
  'importance',
  'confidence',
  'project',
  'thread',
  'steps',
  'source',
  'event_start',
  'event_end',
] as const;
const READ_ONLY = new Set([
  'id',
  'space',
  'status',
  'created_at',
  'updated_at',
  'valid_from',
  'valid_to',
  'superseded_by',
  'forgotten_at',
  'link',
  'unit_type',
]);

function scalar(key: string, v: FrontMatterValue, where: string): string {
  if (typeof v !== 'string') throw invalidInput(`${where}: "${key}" must be a single value`);
  return v;
}

export function parseMemoryFile(text: string, where: string): MemoryFileFields {
  if (typeof text !== 'string') throw invalidInput(`${where}: the memory text is missing`);
  const normalized = text.replace(/^\uFEFF/, '');
  if (!/^---[ \t]*\r?\n/.test(normalized)) return { content: normalized };
  const fm = parseFrontMatter(normalized, where);
  const out: MemoryFileFields = { content: fm.body };
  for (const [key, value] of Object.entries(fm.fields)) {
    if (READ_ONLY.has(key)) continue;
    if (!(EDITABLE as readonly string[]).includes(key))
      throw invalidInput(`${where}: unknown key "${key}"; a memory file may set ${EDITABLE.join(', ')}`);
    if (key === 'labels') {
      out.labels = Array.isArray(value)
        ? value
        : typeof value === 'string'
          ? value.split(',').map((l) => l.trim())
          : [];
      continue;
    }
    const v = scalar(key, value, where);
    if (v === '' || v === '~' || v === 'null') continue;
    if (key === 'event_start') out.eventStart = v;
    else if (key === 'event_end') out.eventEnd = v;
    else out[key as Exclude<(typeof EDITABLE)[number], 'labels' | 'event_start' | 'event_end'>] = v;
  }
  // `unit_type` is the JSON name of `type`; accept it as a synonym when `type` is absent.
  const ut = fm.fields.unit_type;
  if (out.type === undefined && typeof ut === 'string' && ut) out.type = ut;
  return out;
}
