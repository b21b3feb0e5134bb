/**
 * Full-text terms for the PostgreSQL transcript index: the step's tsvector (FTS5's tokenizer and
 * stemmer, from fts5-text.ts, so both backends match the same steps and the search layer's term
 * matcher agrees) and the identifier tokens its trigram index covers.
 */
import type { StepKind } from '../../core/types.js';
import { TsvectorBuilder } from './fts5-text.js';

// The query side is shared with the other stores (transcript-retrieval.ts imports it from here).
export {
  exactIdentQuery,
  excludedQuery,
  ftsWords,
  termQuery,
  withoutExcluded,
  wordLexeme,
} from './fts5-text.js';

/**
 * The tsvector literal of a step: its text as weight A, then its identifier terms as B (C for
 * tool steps), then its neighbour field as D, positions continuing after the text.
 */
export function stepTsvector(kind: StepKind, text: string, idents: string, context = ''): string {
  const v = new TsvectorBuilder();
  v.text(text, 'A');
  v.gap(1); // a phrase never spans the text and the identifier terms
  v.text(idents, kind === 'tool_call' || kind === 'tool_result' ? 'C' : 'B');
  if (context) {
    v.gap(1);
    v.text(context, 'D');
  }
  return v.toString();
}

// Character classes of the identifier scanner (as core/idents.ts reads code): 1 = word char
// (letter, digit, `_`, `$`), 2 = joiner (`.` `/` `:` `\` `-`).
const CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z0-9_$]/.test(ch)) CLASS[c] = 1;
  else if ('./:\\-'.includes(ch)) CLASS[c] = 2;
}
const MAYBE_IDENT = /[A-Za-z0-9][_./:\\-][A-Za-z0-9]|[a-z][A-Z]|_/;
/** Caps of the identifier-token column: a huge tool output cannot blow the trigram index up. */
const MAX_TOKENS = 200;
const MAX_TOKEN_CHARS = 200;
const MAX_TOKENS_CHARS = 8000;

/**
 * The identifier-like tokens of a step, lowercased, deduplicated, capped, space-separated: the
 * column the trigram index covers. A token is a run of word characters and joiners (trailing
 * joiners dropped) that `core/idents.ts` `isIdentifier` would call code — it has `_`, `.`, `/`,
 * `:`, `\`, an inner capital, or a `-` with a digit or two capitals. The query terms looked up
 * by substring are exactly such identifiers (`ERR_SOCK`, `vatColumn`), and a token of the text
 * containing one is itself such a token, so indexing these instead of the whole text (mostly
 * prose) finds the same steps for a fraction of the trigrams. Plain words and letter-digit mixes
 * (`sha256`) are left out: a query word is matched by the full-text index, never by substring.
 */
export function identTokens(text: string): string {
  if (!MAYBE_IDENT.test(text)) return '';
  const out = new Set<string>();
  let chars = 0;
  const n = text.length;
  let i = 0;
  while (i < n && out.size < MAX_TOKENS && chars < MAX_TOKENS_CHARS) {
    const c = text.charCodeAt(i);
    if (c >= 128 || CLASS[c] !== 1) {
      i++;
      continue;
    }
    const start = i;
    let lastWord = i;
    let joiner = false;
    let hyphenOnly = true;
    let underscore = false;
    let camel = false;
    let digit = false;
    let letter = false;
    let caps = false;
    let prevUpper = false;
    let prevLower = false;
    // Joiners count once a word character follows them (`retry.` is a plain word).
    let pending = false;
    let pendingNonHyphen = false;
    while (i < n) {
      const d = text.charCodeAt(i);
      const k = d < 128 ? CLASS[d] : 0;
      if (k === 0) break;
      if (k === 1) {
        if (pending) {
          joiner = true;
          if (pendingNonHyphen) hyphenOnly = false;
          pending = false;
          pendingNonHyphen = false;
        }
        lastWord = i;
        const upper = d >= 65 && d <= 90;
        const lower = d >= 97 && d <= 122;
        if (d === 95) underscore = true;
        else if (d >= 48 && d <= 57) digit = true;
        if (upper || lower) letter = true;
        if (upper && prevLower) camel = true;
        if (upper && prevUpper) caps = true;
        prevUpper = upper;
        prevLower = lower;
      } else {
        pending = true;
        if (d !== 45) pendingNonHyphen = true;
        prevUpper = false;
        prevLower = false;
      }
      i++;
    }
    if (!letter || (!joiner && !underscore && !camel)) continue; // a plain word or number
    // `long-running` is prose; `ERR-42` and `X-API` are code (isIdentifier's rule).
    if (joiner && hyphenOnly && !underscore && !camel && !digit && !caps) continue;
    const len = lastWord + 1 - start;
    if (len < 3 || len > MAX_TOKEN_CHARS) continue;
    const tok = text.slice(start, lastWord + 1).toLowerCase();
    if (out.has(tok)) continue;
    out.add(tok);
    chars += tok.length + 1;
  }
  return [...out].join(' ');
}

/** A LIKE pattern matching `s` anywhere (for the trigram index), with `%`, `_` and `\` escaped. */
export function containsPattern(s: string): string {
  return `%${s.replace(/[\\%_]/g, '\\$&')}%`;
}
