/**
 * Query parsing. A question typed as-is must work, so the parser never rejects input: quotes make
 * phrases, `word*` a prefix, `-word` an exclusion, identifiers are kept whole, stop words are
 * dropped (unless nothing else is left), and so are words that only frame a question (unless
 * fewer than two others are left), and anything it cannot read becomes plain words.
 */
import { isIdentifier } from './idents.js';
import { FRAMING_WORDS, STOP_WORDS } from './stopwords.js';

export type TermKind = 'word' | 'phrase' | 'prefix' | 'ident';

export interface QueryTerm {
  kind: TermKind;
  /** Lowercased words for word/prefix/phrase; the identifier as typed for ident. */
  text: string;
}

/**
 * A word related to one of the query's terms (core/related-words.ts): a low-weight extra that
 * credits a text lacking the term itself. `df` is its document frequency, once the index told.
 */
export interface RelatedTerm {
  text: string;
  /** Index of the query term it stands in for. */
  of: number;
  df?: number;
}

export interface ParsedQuery {
  raw: string;
  terms: QueryTerm[];
  excluded: QueryTerm[];
  /** Set by search/ (query expansion) after parsing; the index ignores it. */
  related?: RelatedTerm[];
}

const MAX_TERMS = 16;
const WORD_RE = /[\p{L}\p{N}][\p{L}\p{N}'’]*/gu;

function wordsOf(text: string): string[] {
  return (text.toLowerCase().match(WORD_RE) ?? []).map((w) => w.replace(/['’]s$/, '').replace(/['’]/g, ''));
}

/** Turn one whitespace-separated token into terms. */
function termsOfToken(token: string): QueryTerm[] {
  const bare = token.replace(/^[^\p{L}\p{N}_$]+|[^\p{L}\p{N}_$*]+$/gu, '');
  if (!bare) return [];
  if (bare.endsWith('*')) {
    const stem = wordsOf(bare.slice(0, -1)).join(' ');
    return stem.length >= 2 && !stem.includes(' ') ? [{ kind: 'prefix', text: stem }] : [];
  }
  if (isIdentifier(bare)) return [{ kind: 'ident', text: bare }];
  return wordsOf(bare).map((w) => ({ kind: 'word', text: w }));
}

function dedupe(terms: QueryTerm[]): QueryTerm[] {
  const seen = new Set<string>();
  return terms.filter((t) => {
    const k = `${t.kind}:${t.text.toLowerCase()}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

export function parseQuery(raw: string): ParsedQuery {
  const terms: QueryTerm[] = [];
  const excluded: QueryTerm[] = [];
  // Split into quoted phrases and bare tokens; a lone unbalanced quote is ignored.
  const re = /(-?)"([^"]*)"|(\S+)/g;
  for (const m of raw.matchAll(re)) {
    if (m[2] !== undefined) {
      const words = wordsOf(m[2]);
      if (words.length === 0) continue;
      const t: QueryTerm =
        words.length === 1 ? { kind: 'word', text: words[0] } : { kind: 'phrase', text: words.join(' ') };
      (m[1] ? excluded : terms).push(t);
      continue;
    }
    const token = m[3] ?? '';
    if (token.length > 1 && token.startsWith('-') && /[\p{L}\p{N}]/u.test(token[1])) {
      excluded.push(...termsOfToken(token.slice(1)));
      continue;
    }
    terms.push(...termsOfToken(token));
  }
  const meaningful = terms.filter((t) => t.kind !== 'word' || !STOP_WORDS.has(t.text));
  const isFraming = (t: QueryTerm) => t.kind === 'word' && FRAMING_WORDS.has(t.text);
  const content = meaningful.filter((t) => !isFraming(t));
  const kept = content.length >= 2 ? content : meaningful.length > 0 ? meaningful : terms;
  return { raw, terms: dedupe(kept).slice(0, MAX_TERMS), excluded: dedupe(excluded) };
}
