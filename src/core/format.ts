/** Small pure helpers the source parsers share: timestamps, fingerprints, bounded lists, previews. */
import { squash } from './text.js';

/** ISO 8601 from a string or epoch number, or undefined when it does not parse. */
export function toIso(value: unknown): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  if (typeof value === 'string' && value.trim() === '') return undefined;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

/**
 * A short stable fingerprint (53-bit cyrb53, base 36), so parser state can remember texts it has
 * seen without storing them. Not for security.
 */
export function fingerprint(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

/** Append to a list and drop the oldest entries beyond `max` (state must stay small). */
export function pushBounded<T>(list: T[], item: T, max: number): void {
  list.push(item);
  if (list.length > max) list.splice(0, list.length - max);
}

/** One-line JSON rendering of tool arguments, at most `max` characters. */
export function compactArgs(args: unknown, max: number): string {
  let s: string;
  try {
    s = typeof args === 'string' ? args : (JSON.stringify(args) ?? '');
  } catch {
    s = String(args);
  }
  // Cut before squashing: a Write tool's arguments can hold a whole file.
  s = squash(s.length > max * 4 ? s.slice(0, max * 4) : s);
  return s.length > max ? `${s.slice(0, Math.max(0, max - 1))}…` : s;
}

/** A printable one-line excerpt of a bad line (or parser error), for an issue message a person can act on. */
export function preview(text: string, max = 60): string {
  const s = squash(text.slice(0, max * 4).replace(/[^\x20-\x7e\u00a0-\ufffc]/g, '?'));
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}
