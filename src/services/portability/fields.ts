/**
 * Reading one record of an export file: typed field accessors that throw a RecordError naming the
 * field, which the importer turns into `<file>:<line>: <problem>`. Free text is redacted on the
 * way in (an export folder may come from anywhere), and the redactions are counted.
 */
import { redact } from '../../core/redact.js';
import { isRecord } from '../../core/text.js';

export class RecordError extends Error {}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

export interface Fields {
  str(key: string, opts?: { max?: number; empty?: boolean }): string;
  optStr(key: string, opts?: { max?: number }): string | null;
  /** Free text: redacted. */
  text(key: string, opts?: { max?: number; empty?: boolean }): string;
  optText(key: string, opts?: { max?: number }): string | null;
  int(key: string, opts?: { min?: number; max?: number }): number;
  optInt(key: string, opts?: { min?: number }): number | null;
  num(key: string, opts?: { min?: number; max?: number }): number;
  bool(key: string): boolean;
  iso(key: string): string;
  optIso(key: string): string | null;
  list(key: string): unknown[];
  raw(key: string): unknown;
  /** The same accessors on a nested object (`key` names it in errors). */
  nested(value: unknown, where: string): Fields;
}

export function fieldsOf(value: unknown, where: string, redactions: { n: number }): Fields {
  if (!isRecord(value)) throw new RecordError(`${where || 'the record'} must be a JSON object`);
  const o = value;
  const name = (k: string) => (where ? `${where}.${k}` : k);
  const has = (k: string) => o[k] !== undefined && o[k] !== null;

  const str: Fields['str'] = (k, { max = 1_000_000, empty = false } = {}) => {
    const v = o[k];
    if (typeof v !== 'string') throw new RecordError(`"${name(k)}" must be text`);
    if (!empty && v.trim() === '') throw new RecordError(`"${name(k)}" is empty`);
    if (v.length > max) throw new RecordError(`"${name(k)}" is over ${max} characters`);
    return v;
  };
  const clean = (v: string) => {
    const r = redact(v);
    redactions.n += r.redactions;
    return r.text;
  };
  const int: Fields['int'] = (k, { min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER } = {}) => {
    const v = o[k];
    if (typeof v !== 'number' || !Number.isInteger(v))
      throw new RecordError(`"${name(k)}" must be a whole number`);
    if (v < min || v > max) throw new RecordError(`"${name(k)}" must be from ${min} to ${max}, got ${v}`);
    return v;
  };
  const iso: Fields['iso'] = (k) => {
    const v = o[k];
    if (typeof v !== 'string' || !ISO.test(v) || Number.isNaN(Date.parse(v)))
      throw new RecordError(`"${name(k)}" must be an ISO time such as 2026-01-31T12:00:00.000Z`);
    return v;
  };

  const f: Fields = {
    str,
    optStr: (k, opts) => (has(k) ? str(k, opts) : null),
    text: (k, opts) => clean(str(k, opts)),
    optText: (k, opts) => (has(k) ? clean(str(k, { ...opts, empty: true })) : null),
    int,
    optInt: (k, opts) => (has(k) ? int(k, opts) : null),
    num(k, { min = -Infinity, max = Infinity } = {}) {
      const v = o[k];
      if (typeof v !== 'number' || !Number.isFinite(v))
        throw new RecordError(`"${name(k)}" must be a number`);
      if (v < min || v > max) throw new RecordError(`"${name(k)}" must be from ${min} to ${max}, got ${v}`);
      return v;
    },
    bool(k) {
      if (typeof o[k] !== 'boolean') throw new RecordError(`"${name(k)}" must be true or false`);
      return o[k] as boolean;
    },
    iso,
    optIso: (k) => (has(k) ? iso(k) : null),
    list(k) {
      if (!Array.isArray(o[k])) throw new RecordError(`"${name(k)}" must be a list`);
      return o[k] as unknown[];
    },
    raw: (k) => o[k],
    nested: (v, w) => fieldsOf(v, w, redactions),
  };
  return f;
}

/** Run a validator, turning its RecordError or INVALID_INPUT into a message. */
export function attempt<T>(fn: () => T): { ok: true; value: T } | { ok: false; message: string } {
  try {
    return { ok: true, value: fn() };
  } catch (e) {
    if (e instanceof RecordError) return { ok: false, message: e.message };
    if ((e as { code?: string }).code === 'INVALID_INPUT')
      return { ok: false, message: (e as Error).message };
    throw e;
  }
}
