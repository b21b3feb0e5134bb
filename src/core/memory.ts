/** The memory model (DESIGN.md): pure types, constants and tapedeck:// links. */

export const UNIT_TYPES = [
  'fact',
  'preference',
  'decision',
  'plan',
  'procedure',
  'learning',
  'context',
  'event',
] as const;
export type UnitType = (typeof UNIT_TYPES)[number];

export function isUnitType(value: string): value is UnitType {
  return (UNIT_TYPES as readonly string[]).includes(value);
}

/** active: current; superseded: replaced by a newer memory (readable with as-of); forgotten: tombstoned. */
export const MEMORY_STATUSES = ['active', 'superseded', 'forgotten'] as const;
export type MemoryStatus = (typeof MEMORY_STATUSES)[number];

/** Where a memory came from: a thread (and step range) of a transcript, and/or a file or URL. */
export interface Provenance {
  thread: string | null;
  step_from: number | null;
  step_to: number | null;
  /** `tapedeck://thread/<id>#<step>` when a thread is known. */
  link: string | null;
  source: string | null;
}

/** A memory as every interface returns it (snake_case: the CLI JSON contract). */
export interface Memory {
  id: string;
  /** `tapedeck://memory/<id>` */
  link: string;
  title: string;
  content: string;
  unit_type: UnitType;
  labels: string[];
  importance: number;
  confidence: number;
  space: string;
  project: string | null;
  provenance: Provenance | null;
  event_start: string | null;
  event_end: string | null;
  created_at: string;
  updated_at: string;
  valid_from: string;
  valid_to: string | null;
  superseded_by: string | null;
  forgotten_at: string | null;
  status: MemoryStatus;
}

export const MEMORY_LINK_PREFIX = 'tapedeck://memory/';
export const THREAD_LINK_PREFIX = 'tapedeck://thread/';

export const memoryLink = (id: string) => `${MEMORY_LINK_PREFIX}${id}`;

export function threadLink(thread: string, step?: number | null): string {
  return `${THREAD_LINK_PREFIX}${thread}${step === undefined || step === null ? '' : `#${step}`}`;
}

/** `tapedeck://memory/<id>` → id; anything else is returned trimmed, as typed. */
export function memoryRef(input: string): string {
  const s = input.trim();
  return s.startsWith(MEMORY_LINK_PREFIX) ? s.slice(MEMORY_LINK_PREFIX.length).replace(/[#?].*$/, '') : s;
}

/** `tapedeck://thread/<id>#<step>` → { thread, step }; a bare thread id passes through. */
export function threadRef(input: string): { thread: string; step?: number } {
  const s = input.trim();
  if (!s.startsWith(THREAD_LINK_PREFIX)) return { thread: s };
  const rest = s.slice(THREAD_LINK_PREFIX.length);
  const hash = rest.lastIndexOf('#');
  if (hash === -1) return { thread: rest };
  const step = Number(rest.slice(hash + 1));
  return Number.isInteger(step) ? { thread: rest.slice(0, hash), step } : { thread: rest.slice(0, hash) };
}

/** The status implied by the lifecycle columns (forgotten wins over superseded). */
export function statusOf(m: { forgotten_at: string | null; valid_to: string | null }): MemoryStatus {
  if (m.forgotten_at) return 'forgotten';
  return m.valid_to ? 'superseded' : 'active';
}
