/**
 * SQLite FTS5's text rules, for every PostgreSQL store (transcripts, memories, skills, wiki). Every
 * FTS5 table of the SQLite migrations uses `porter unicode61 remove_diacritics 2 tokenchars '_'`:
 * a token starts with a letter, digit, private-use character or `_`, continues with those or a
 * combining diacritic, is lowercased with its Latin diacritics removed, then Porter-stemmed
 * (core/porter.ts agrees with FTS5's stemmer). PostgreSQL's own parsers split `order_total`, read
 * `webhook.ts` as a host name and stem with Snowball, so the stores build their tsvectors here and
 * query them with lexemes made the same way: both backends match the same rows for a query.
 *
 * Queries are compiled from the parsed query, never from raw input: every lexeme is quoted and
 * holds only word characters, so no input can make a tsquery syntax error.
 */
import { identParts, joinedForm } from '../../core/idents.js';
import { porterStem } from '../../core/porter.js';
import type { ParsedQuery, QueryTerm } from '../../core/query.js';

/** FTS5's diacritics (sqlite3Fts5UnicodeIsdiacritic): they continue a token and fold away. */
const DIACRITICS = (() => {
  const masks = [0x08029fdf, 0x000361f8];
  let cls = '';
  for (let c = 768; c <= 817; c++)
    if (masks[c < 800 ? 0 : 1]! & (1 << (c - (c < 800 ? 768 : 800)))) cls += String.fromCharCode(c);
  return cls;
})();
const TOKEN = new RegExp(`[\\p{L}\\p{N}\\p{Co}_][\\p{L}\\p{N}\\p{Co}_${DIACRITICS}]*`, 'gu');

/** PostgreSQL refuses lexemes over 2 KB: longer words are cut, query words alike. */
const MAX_LEXEME = 200;
/** tsvector limits: positions 1..16383, 256 positions per lexeme. */
const MAX_POS = 16_383;
const MAX_POSITIONS = 256;

/** One token of a text: its folded (unstemmed) word and where it stands in the text. */
export interface FtsToken {
  word: string;
  start: number;
  end: number;
}

/** Latin letters FTS5's remove_diacritics folds (é → e); other scripts keep theirs (й, Hangul). */
const LATIN_MARKED = /[\u00c0-\u024f\u1e00-\u1eff]/gu;
const MARKS = new RegExp(`[${DIACRITICS}\u0300-\u036f]`, 'gu');

function fold(token: string): string {
  const t = token.toLowerCase();
  if (!/[^\x00-\x7f]/.test(t)) return t;
  return t.replace(LATIN_MARKED, (c) => c.normalize('NFD').replace(MARKS, '')).replace(MARKS, '');
}

/** The tokens of a text as FTS5's unicode61 tokenizer reads them, with their offsets. */
export function ftsTokens(text: string): FtsToken[] {
  const out: FtsToken[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const word = fold(m[0]);
    if (word) out.push({ word, start: m.index, end: m.index + m[0].length });
  }
  return out;
}

/** The folded words of a text, in order. */
export function ftsWords(text: string): string[] {
  return ftsTokens(text).map((t) => t.word);
}

/** A word's stem as FTS5's porter tokenizer indexes it (unbounded: for matching in JS). */
export const stem = (word: string): string => porterStem(word);

/** A word's lexeme in a tsvector or tsquery: its stem, the word first cut to MAX_LEXEME. */
export function lexeme(word: string): string {
  if (word.length <= MAX_LEXEME) return porterStem(word);
  const c = word.slice(0, MAX_LEXEME);
  // Never end on half a surrogate pair.
  return porterStem(/[\uD800-\uDBFF]$/.test(c) ? c.slice(0, -1) : c);
}

/** The lexemes of a text, in order. */
export const lexemes = (text: string): string[] => ftsWords(text).map(lexeme);

export const quoteLexeme = (s: string): string => `'${s.replace(/['\\]/g, '$&$&')}'`;

export type Weight = 'A' | 'B' | 'C' | 'D';

/**
 * A tsvector literal built field by field (`'lexeme':pos<weight>`). Positions run on across
 * fields; `gap` skips some so a phrase never matches across two fields. Past PostgreSQL's limits
 * positions are clamped (the lexeme is still indexed), so only phrases that far in are approximate.
 */
export class TsvectorBuilder {
  private readonly positions = new Map<string, Set<string>>();
  private readonly bare = new Set<string>();
  private pos = 0;

  /** Adds a field's words (`ftsWords`) with one weight; returns how many tokens it had. */
  words(words: readonly string[], weight: Weight): number {
    for (const w of words) {
      this.pos = Math.min(this.pos + 1, MAX_POS);
      const lex = lexeme(w);
      let at = this.positions.get(lex);
      if (!at) {
        at = new Set();
        this.positions.set(lex, at);
      }
      if (at.size < MAX_POSITIONS) at.add(`${this.pos}${weight}`);
    }
    return words.length;
  }

  /** Adds a field's text; returns its token count (FTS5's column size). */
  text(text: string, weight: Weight): number {
    return this.words(ftsWords(text), weight);
  }

  /** Skips `n` positions (between fields). */
  gap(n: number): this {
    this.pos = Math.min(this.pos + n, MAX_POS);
    return this;
  }

  /** A positionless lexeme, taken as is (a filter tag no word can spell). */
  tag(lex: string): this {
    this.bare.add(lex);
    return this;
  }

  toString(): string {
    const out: string[] = [];
    for (const [lex, at] of this.positions) out.push(`${quoteLexeme(lex)}:${[...at].join(',')}`);
    for (const t of this.bare) if (!this.positions.has(t)) out.push(quoteLexeme(t));
    return out.join(' ');
  }
}

/**
 * The words of `text` as a tsquery phrase (FTS5's `"quoted string"`, `"…" *` with `prefix`), or ''
 * when it has no words. `adjacent: false` drops word order (`&` instead of `<->`): a superset for
 * prefiltering rows that are then matched exactly in JS, immune to clamped positions.
 */
export function phraseQuery(text: string, opts: { prefix?: boolean; adjacent?: boolean } = {}): string {
  const parts = lexemes(text).map(quoteLexeme);
  if (parts.length === 0) return '';
  if (opts.prefix) parts[parts.length - 1] += ':*';
  if (parts.length === 1) return parts[0]!;
  return `(${parts.join(opts.adjacent === false ? ' & ' : ' <-> ')})`;
}

/**
 * One query term as a tsquery, '' when it has no lexeme — the twin of sqlite/fts-query.ts termExpr:
 * an identifier matches its joined form as a phrase, or all its parts anywhere (`handleWebhook.ts`
 * finds `handle_webhook.ts` and the camelCase parts indexed beside the text).
 */
export const termQuery = (t: QueryTerm): string => termQueryWith(t, true);

/** termQuery with phrases loosened to all their words anywhere: a superset to match exactly in JS. */
export const looseTermQuery = (t: QueryTerm): string => termQueryWith(t, false);

function termQueryWith(t: QueryTerm, adjacent: boolean): string {
  switch (t.kind) {
    case 'word':
    case 'phrase':
      return phraseQuery(t.text, { adjacent });
    case 'prefix':
      return phraseQuery(t.text, { prefix: true, adjacent });
    case 'ident': {
      const alts = new Set<string>();
      const joined = phraseQuery(joinedForm(t.text), { adjacent });
      if (joined) alts.add(joined);
      const parts = identParts(t.text)
        .map((p) => phraseQuery(p, { adjacent }))
        .filter(Boolean);
      if (parts.length > 1) alts.add(`(${parts.join(' & ')})`);
      else if (parts.length === 1) alts.add(parts[0]!);
      return alts.size > 1 ? `(${[...alts].join(' | ')})` : ([...alts][0] ?? '');
    }
  }
}

/** An identifier's exact form only (its joined form, or for snake_case the name itself). */
export function exactIdentQuery(t: QueryTerm): string {
  return phraseQuery(joinedForm(t.text));
}

/** The single phrase a term is ranked by: an identifier by its joined form (`src_db_ts`). */
export function rankQuery(t: QueryTerm): string {
  if (t.kind !== 'ident') return termQuery(t);
  const joined = exactIdentQuery(t);
  if (joined) return joined;
  const parts = identParts(t.text);
  return parts.length ? phraseQuery(parts.join(' ')) : '';
}

/** The one lexeme of a plain word term (its planner-statistics key), or null. */
export function wordLexeme(t: QueryTerm): string | null {
  if (t.kind !== 'word') return null;
  const words = ftsWords(t.text);
  return words.length === 1 ? lexeme(words[0]!) : null;
}

export const anyOf = (qs: readonly string[]): string => qs.map((q) => `(${q})`).join(' | ');
export const allOf = (qs: readonly string[]): string => qs.map((q) => `(${q})`).join(' & ');
/** `core` without any of the excluded queries. */
export const without = (core: string, excluded: readonly string[]): string =>
  excluded.length ? `(${core}) & !(${anyOf(excluded)})` : core;

/** The excluded terms OR-ed, or null when there are none. */
export function excludedQuery(q: ParsedQuery): string | null {
  const not = q.excluded.map(termQuery).filter(Boolean);
  return not.length ? not.join(' | ') : null;
}

/** `expr` without rows that match an excluded term. */
export function withoutExcluded(expr: string, excluded: string | null): string {
  return excluded ? `(${expr}) & !(${excluded})` : expr;
}
