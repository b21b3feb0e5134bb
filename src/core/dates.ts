/** Date bounds typed by people: `2026-03-01`, ISO times, `7d`, `2w`, `12h`, `today`, `yesterday`. */
import { invalidInput } from './errors.js';

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/**
 * Parse a bound into an ISO string. `end` makes a bare date mean the end of that day, so
 * `--until 2026-03-01` includes March 1st.
 */
export function parseDateBound(input: string, { now = Date.now(), end = false } = {}): string {
  const s = input.trim().toLowerCase();
  const rel = /^(\d+)\s*(m|min|h|d|w)$/.exec(s);
  if (rel) return new Date(now - Number(rel[1]) * UNIT_MS[rel[2][0]]).toISOString();
  const dayStart = (offsetDays: number) => {
    const d = new Date(now);
    d.setUTCHours(0, 0, 0, 0);
    return d.getTime() + offsetDays * UNIT_MS.d;
  };
  if (s === 'today') return new Date(end ? dayStart(1) - 1 : dayStart(0)).toISOString();
  if (s === 'yesterday') return new Date(end ? dayStart(0) - 1 : dayStart(-1)).toISOString();
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) {
    const t = Date.parse(`${s}T00:00:00Z`);
    if (!Number.isNaN(t)) return new Date(end ? t + UNIT_MS.d - 1 : t).toISOString();
  } else {
    const t = Date.parse(input.trim());
    if (!Number.isNaN(t) && /^\d{4}-\d{2}/.test(s)) return new Date(t).toISOString();
  }
  throw invalidInput(
    `Cannot read the date "${input}": use YYYY-MM-DD, an ISO time, a span like 7d / 2w / 12h, today or yesterday`,
  );
}
