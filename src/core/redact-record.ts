/**
 * Redaction of whole records: every string anywhere in a value (object fields, array items,
 * nested), so that a field added to a stored type is redacted without anyone remembering to.
 * Only plain objects and arrays are walked; anything else (numbers, bytes, sets, dates) is kept
 * as it is. A value with nothing to redact comes back as the same object, so the common case
 * allocates nothing. An object marked with `markRedacted` is taken as it is: its strings were
 * redacted when it was made, and redacting them again would change nothing but cost time.
 */
import { redact } from './redact.js';

/** Counts what a redaction changed. */
export interface RecordRedaction<T> {
  value: T;
  /** How many secrets were replaced across all strings. */
  redactions: number;
}

/** Objects whose every string was redacted when they were built (see markRedacted). */
const redacted = new WeakSet<object>();

/**
 * Record that every string in `value` has just been redacted, so the store boundary does not
 * redact it again. Only for a value built from redacted strings (ingest's prepared steps: the
 * indexing hot path, where a second pass cost a third of the writing thread); a mark cannot be
 * forged by data (it is not a field and does not survive a copy), and whoever changes a marked
 * object afterwards must put only redacted text in it.
 */
export function markRedacted<T extends object>(value: T): T {
  redacted.add(value);
  return value;
}

const isPlainObject = (v: object): boolean => {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/** `value` with every string in it redacted (see redact.ts), and how many secrets that replaced. */
export function redactRecordCounted<T>(value: T): RecordRedaction<T> {
  let redactions = 0;
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') {
      const r = redact(v);
      redactions += r.redactions;
      return r.text;
    }
    if (v === null || typeof v !== 'object' || depth > 32 || redacted.has(v)) return v;
    if (Array.isArray(v)) {
      let out: unknown[] | undefined;
      for (let i = 0; i < v.length; i++) {
        const x = walk(v[i], depth + 1);
        if (x === v[i]) continue;
        out ??= v.slice();
        out[i] = x;
      }
      return out ?? v;
    }
    if (!isPlainObject(v)) return v;
    let out: Record<string, unknown> | undefined;
    for (const [k, x] of Object.entries(v)) {
      const y = walk(x, depth + 1);
      if (y === x) continue;
      out ??= { ...(v as Record<string, unknown>) };
      out[k] = y;
    }
    return out ?? v;
  };
  const out = walk(value, 0) as T;
  return { value: out, redactions };
}

/** `value` with every string in it redacted. */
export const redactRecord = <T>(value: T): T => redactRecordCounted(value).value;
