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

/** A LIKE pattern matching `s` anywhere (for the trigram index), with `%`, `_` and `\` escaped. */
export function containsPattern(s: string): string {
  return `%${s.replace(/[\\%_]/g, '\\$&')}%`;
}
