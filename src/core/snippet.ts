/**
 * A plain-text excerpt around the first query word, with words marked «like this». Used when the
 * index's own snippet has nothing to mark (the match was in an identifier's parts).
 */
import { identParts } from './idents.js';
import type { ParsedQuery } from './query.js';

/** Crude stem: enough to find `dropped` for `drop` and `caching` for `cache`. */
const stem = (w: string) => w.toLowerCase().replace(/(ing|ed|es|s|e)$/, '');

export function fallbackSnippet(text: string, query: ParsedQuery, maxWords: number): string {
  const words = text.split(/\s+/).filter(Boolean);
  const stems = new Set(
    query.terms.flatMap((t) => (t.kind === 'ident' ? identParts(t.text) : t.text.split(' '))).map(stem).filter((s) => s.length >= 2),
  );
  const hits = (w: string) => {
    const parts = identParts(w);
    return [stem(w.replace(/[^\p{L}\p{N}_]/gu, '')), ...parts.map(stem)].some((s) => stems.has(s));
  };
  const first = Math.max(0, words.findIndex(hits));
  const start = Math.max(0, first - Math.floor(maxWords / 3));
  const slice = words.slice(start, start + maxWords).map((w) => (hits(w) ? `«${w}»` : w));
  return `${start > 0 ? '…' : ''}${slice.join(' ')}${start + maxWords < words.length ? '…' : ''}`;
}
