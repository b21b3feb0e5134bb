/**
 * Full-text terms for the PostgreSQL transcript index, made with SQLite's FTS5 tokenizer rules
 * (`porter unicode61 remove_diacritics 2 tokenchars '_'`): a word is a run of letters, digits and
 * `_`, lowercased, Latin diacritics folded, then Porter-stemmed. PostgreSQL's own parsers split
 * `order_total_rounding`, read `webhook.ts` as a host name and stem with Snowball, so the store
 * builds the tsvector itself and queries it with lexemes it stems the same way — the two backends
 * then match the same steps for the same query, and the search layer's term matcher agrees.
 *
 * Queries are compiled from the parsed query, never from raw input: every lexeme is quoted and
 * holds only word characters, so no input can make a tsquery syntax error.
 */
import { identParts, joinedForm } from '../../core/idents.js';
import { porterStem } from '../../core/porter.js';
import type { ParsedQuery, QueryTerm } from '../../core/query.js';
import type { StepKind } from '../../core/types.js';

const WORD = /[\p{L}\p{N}\p{Co}_]+/gu;
/** tsvector limits: positions 1..16383, 256 positions per lexeme, lexemes under 2 KB. */
const MAX_POS = 16_383;
const MAX_POSITIONS = 256;
const MAX_WORD_CHARS = 500;

/** Words of a text as the FTS5 unicode61 tokenizer (remove_diacritics 2, `_` a word char) reads them. */
export function ftsWords(text: string): string[] {
  let t = text.toLowerCase();
  // Fold combining diacritics (é → e) but keep composed forms of other scripts (Hangul) whole.
  if (/[^\x00-\x7f]/.test(t))
    t = t
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .normalize('NFC');
  return t.match(WORD) ?? [];
}

const lexeme = (word: string) => porterStem(word);
const quoteLexeme = (s: string) => `'${s.replace(/['\\]/g, '$&$&')}'`;

/**
 * The tsvector literal of a step: its text as weight A, then its identifier terms as B (C for
 * tool steps, whose identifiers rank lowest in SQLite too), positions continuing after the text.
 */
export function stepTsvector(kind: StepKind, text: string, idents: string): string {
  const positions = new Map<string, string[]>();
  let pos = 0;
  const add = (words: string[], weight: string) => {
    for (const w of words) {
      pos++;
      if (w.length > MAX_WORD_CHARS) continue;
      const lex = lexeme(w);
      let list = positions.get(lex);
      if (!list) {
        list = [];
        positions.set(lex, list);
      }
      if (list.length < MAX_POSITIONS && pos <= MAX_POS) list.push(`${pos}${weight}`);
      else if (list.length === 0) list.push(`${MAX_POS}${weight}`);
    }
  };
  add(ftsWords(text), 'A');
  pos++; // a phrase never spans the text and the identifier terms
  add(ftsWords(idents), kind === 'tool_call' || kind === 'tool_result' ? 'C' : 'B');
  const out: string[] = [];
  for (const [lex, ps] of positions) out.push(`${quoteLexeme(lex)}:${ps.join(',')}`);
  return out.join(' ');
}

/** The words of `s` in sequence (FTS5's `"quoted string"`), or '' when it has no words. */
function phrase(s: string): string {
  const lexemes = ftsWords(s).map((w) => quoteLexeme(lexeme(w)));
  if (lexemes.length <= 1) return lexemes[0] ?? '';
  return `(${lexemes.join(' <-> ')})`;
}

/** A tsquery for one query term; '' when the term has no word characters. */
export function termQuery(t: QueryTerm): string {
  switch (t.kind) {
    case 'word':
    case 'phrase':
      return phrase(t.text);
    case 'prefix': {
      // FTS5 stems a prefix too (`parsing*` is `pars*`, which finds `parsers`).
      const lexemes = ftsWords(t.text).map((w) => quoteLexeme(lexeme(w)));
      if (lexemes.length === 0) return '';
      lexemes[lexemes.length - 1] += ':*';
      return lexemes.length > 1 ? `(${lexemes.join(' <-> ')})` : lexemes[0]!;
    }
    case 'ident': {
      const alts = new Set<string>();
      const joined = phrase(joinedForm(t.text));
      if (joined) alts.add(joined);
      // The parts anywhere in the step: `handleWebhook.ts` finds `handle_webhook.ts` and the
      // camelCase parts indexed beside the text.
      const parts = identParts(t.text).map(phrase).filter(Boolean);
      if (parts.length > 1) alts.add(`(${parts.join(' & ')})`);
      else if (parts.length === 1) alts.add(parts[0]!);
      return alts.size > 1 ? `(${[...alts].join(' | ')})` : ([...alts][0] ?? '');
    }
  }
}

/** The one lexeme of a plain word term (its planner-statistics key), or null. */
export function wordLexeme(t: QueryTerm): string | null {
  if (t.kind !== 'word') return null;
  const words = ftsWords(t.text);
  return words.length === 1 && words[0]!.length <= MAX_WORD_CHARS ? lexeme(words[0]!) : null;
}

/** An identifier's exact form only (its joined form, or for snake_case the name itself). */
export function exactIdentQuery(t: QueryTerm): string {
  return phrase(joinedForm(t.text));
}

/** The excluded terms OR-ed, or null when there are none. */
export function excludedQuery(q: ParsedQuery): string | null {
  const not = q.excluded.map(termQuery).filter(Boolean);
  return not.length ? not.join(' | ') : null;
}

/** `expr` without steps that match an excluded term. */
export function withoutExcluded(expr: string, excluded: string | null): string {
  return excluded ? `(${expr}) & !(${excluded})` : expr;
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
