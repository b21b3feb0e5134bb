/**
 * Which query terms a text contains, by Porter stem, without tokenizing the whole text: a native
 * indexOf finds each stem's first letters, and only those spots are stemmed and compared. The
 * search layer uses it to credit words that were too common to send to the index.
 */
import { identParts } from './idents.js';
import { porterStem } from './porter.js';
import type { ParsedQuery, QueryTerm } from './query.js';

const WORD = /[\p{L}\p{N}_]/u;

/** Stems a term needs: all of them must be present for the term to match. */
function stemsOf(t: QueryTerm): string[] {
  if (t.kind === 'ident') return identParts(t.text).map(porterStem);
  if (t.kind === 'prefix') return [t.text];
  return t.text.split(' ').map(porterStem);
}

function hasStem(lower: string, stem: string, prefixOnly: boolean): boolean {
  const probe = stem.slice(0, Math.min(stem.length, 4));
  for (let i = lower.indexOf(probe); i !== -1; i = lower.indexOf(probe, i + 1)) {
    if (i > 0 && lower[i - 1] !== '_' && WORD.test(lower[i - 1])) continue; // must start a word (or a snake_case part)
    let end = i + probe.length;
    while (end < lower.length && WORD.test(lower[end])) end++;
    const word = lower.slice(i, end);
    if (prefixOnly ? word.startsWith(stem) : word === stem || porterStem(word) === stem) return true;
    // snake_case and camelCase words hold their parts
    if (word.includes('_') && word.split('_').some((p) => porterStem(p) === stem)) return true;
  }
  return false;
}

/** A function telling, for a text, which of the query's terms it contains. */
export function createTermMatcher(query: ParsedQuery, maxChars = 6000): (text: string) => boolean[] {
  const terms = query.terms.map((t) => ({ stems: stemsOf(t), prefix: t.kind === 'prefix' }));
  return (text) => {
    const lower = (text.length > maxChars ? text.slice(0, maxChars) : text).toLowerCase();
    return terms.map((t) => t.stems.length > 0 && t.stems.every((s) => hasStem(lower, s, t.prefix)));
  };
}
