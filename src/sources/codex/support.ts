/**
 * Small generic helpers for this adapter (timestamps, fingerprints, bounded lists, arg rendering).
 * Kept local because adapters may not import each other (same as claude-code/support.ts); candidates
 * for a shared module.
 */
import { createHash } from 'node:crypto';
import { squash } from '../../core/text.js';

/** ISO 8601 from a string or epoch number, or undefined when it does not parse. */
export function toIso(value: unknown): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

/** A short stable fingerprint, so state can remember texts without storing them. */
export function fingerprint(text: string): string {
  return createHash('sha1').update(text).digest('base64').slice(0, 16);
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
  s = squash(s);
  return s.length > max ? `${s.slice(0, Math.max(0, max - 1))}…` : s;
}

/** A printable one-line excerpt of a bad line (or parser error), for an issue message a person can act on. */
export function preview(text: string, max = 60): string {
  const s = squash(text.replace(/[^\x20-\x7e\u00a0-\ufffc]/g, '?'));
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}
