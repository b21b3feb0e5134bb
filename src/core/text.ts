/** Small pure text helpers shared by parsers, ingest and search. */

/** Collapse runs of whitespace to single spaces and trim. */
export function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** A one-line title from a user request: first non-empty line, squashed, at most `max` chars. */
export function titleFrom(text: string, max = 120): string {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? '';
  const s = squash(line);
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/**
 * Cut `text` to `max` characters, adding a visible marker that says how much was cut. `total` is
 * the original length when `text` is already a prefix of something longer.
 */
export function capText(text: string, max: number, total = text.length): string {
  if (total <= max) return text;
  return `${text.slice(0, max)}\n[… truncated ${total - max} more characters]`;
}

/** Parse JSON without throwing. */
export function tryParseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function asString(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}
