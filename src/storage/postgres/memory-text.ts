/**
 * Full text for memories on PostgreSQL, tokenized here rather than by a text search config, so
 * PostgreSQL matches exactly what SQLite's FTS5 `porter unicode61 remove_diacritics 2
 * tokenchars '_'` matches: tokens are runs of letters, digits and `_`, lowercased, diacritics
 * removed, Porter-stemmed (core/porter.ts agrees with FTS5's stemmer). The document becomes a
 * tsvector literal (`'lexeme':pos<weight>`), a query a tsquery literal of quoted lexemes: no user
 * input can produce a tsquery syntax error, and no stemming config can disagree between the two.
 *
 * Weights stand in for FTS5's column weights (title 2.0, labels 1.5, content 1.0, identifiers 0.5):
 * title A, labels B, content C, identifiers D, scored with RANK_WEIGHTS by ts_rank_cd.
 *
 * Filter tags, as in SQLite's `tags` column: the vector also holds one positionless lexeme per
 * type, label, project directory (and each one above it) and status, spelt with `#` and `:` so no
 * word can produce one. Unranked matches AND the filter's tags into the tsquery, so the GIN index
 * intersects posting lists instead of handing every match of a common word to the filter; ranked
 * matches never do (ts_rank_cd only weighs the query's own lexemes anyway). Values are hashed so
 * any path or label is one short lexeme; a collision only widens a match the SQL filter rechecks.
 */
import { fnv1a } from '../../core/hash.js';
import { identParts, identTerms, joinedForm } from '../../core/idents.js';
import type { MemoryStatus } from '../../core/memory.js';
import { ancestors } from '../../core/paths.js';
import { porterStem } from '../../core/porter.js';
import type { QueryTerm } from '../../core/query.js';
import type { MemoryFilter } from '../../ports/memory-store.js';

/** ts_rank_cd weights for {D, C, B, A}: FTS5's bm25 column weights halved. */
export const RANK_WEIGHTS = '{0.25,0.5,0.75,1.0}';

const TOKEN_RE = /[\p{L}\p{N}\p{Co}_]+/gu;
/** A lexeme longer than this is cut (PostgreSQL refuses lexemes over 2 KB); query words are cut alike. */
const MAX_LEXEME = 200;
/** PostgreSQL keeps positions up to 16,383 and 256 of them per lexeme. */
const MAX_POS = 16_383;
const MAX_POSITIONS = 256;
/** Positions skipped between fields, so a phrase never matches across two of them. */
const FIELD_GAP = 8;

function cut(token: string): string {
  if (token.length <= MAX_LEXEME) return token;
  const c = token.slice(0, MAX_LEXEME);
  // Never end on half a surrogate pair.
  return /[\uD800-\uDBFF]$/.test(c) ? c.slice(0, -1) : c;
}

/** The lexemes of a text, in order (what FTS5's tokenizer would emit for it). */
export function lexemes(text: string): string[] {
  const folded = text
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .normalize('NFC');
  return (folded.match(TOKEN_RE) ?? []).map((t) => porterStem(cut(t)));
}

const quoteLexeme = (lex: string) => `'${lex.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

export interface IndexedMemoryText {
  title: string;
  content: string;
  labels: readonly string[];
  unit_type: string;
  project: string | null;
  status: MemoryStatus;
}

const tag = {
  type: (t: string) => `#t:${t}`,
  label: (l: string) => `#l:${fnv1a(l).toString(36)}`,
  project: (p: string) => `#p:${fnv1a(p).toString(36)}`,
  status: (s: string) => `#x:${s}`,
};

function tagsOf(m: IndexedMemoryText): string[] {
  const out = [tag.type(m.unit_type), tag.status(m.status), ...m.labels.map(tag.label)];
  if (m.project) for (const p of ancestors(m.project)) out.push(tag.project(p));
  return out;
}

/**
 * The filter as a tsquery of tags to AND into an unranked match, or '' (SQLite's tagExpr). Active
 * memories are nearly all of them, so a filter that includes them gets no status tag; spaces are
 * left to the b-tree indexes.
 */
export function filterTags(f: MemoryFilter): string {
  const out: string[] = [];
  const any = (tags: string[]) =>
    out.push(tags.length === 1 ? quoteLexeme(tags[0]!) : `(${tags.map(quoteLexeme).join(' | ')})`);
  if (f.types?.length) any(f.types.map(tag.type));
  for (const l of f.labels ?? []) any([tag.label(l)]);
  if (f.project) any([tag.project(f.project)]);
  const statuses: MemoryStatus[] = f.asOf
    ? ['active', 'superseded']
    : f.statuses?.length
      ? f.statuses
      : ['active'];
  if (!statuses.includes('active')) any(statuses.map(tag.status));
  return out.join(' & ');
}

/** The tsvector literal of a memory: title (A), labels (B), content (C), identifier forms (D), tags. */
export function memoryVector(m: IndexedMemoryText): string {
  const positions = new Map<string, string[]>();
  let pos = 0;
  const field = (text: string, weight: 'A' | 'B' | 'C' | 'D') => {
    for (const lex of lexemes(text)) {
      pos = Math.min(pos + 1, MAX_POS);
      const at = positions.get(lex) ?? [];
      if (at.length === 0) positions.set(lex, at);
      if (at.length < MAX_POSITIONS) at.push(`${pos}${weight}`);
    }
    pos = Math.min(pos + FIELD_GAP, MAX_POS);
  };
  field(m.title, 'A');
  field(m.labels.join(' '), 'B');
  field(m.content, 'C');
  field(identTerms(`${m.title}\n${m.content}`), 'D');
  const out: string[] = [];
  // PostgreSQL sorts and merges duplicate positions itself; a clamped position may repeat.
  for (const [lex, at] of positions) out.push(`${quoteLexeme(lex)}:${[...new Set(at)].join(',')}`);
  for (const t of new Set(tagsOf(m))) out.push(quoteLexeme(t));
  return out.join(' ');
}

/** A phrase of the text's lexemes (`'a' <-> 'b'`), the last one a prefix when asked; '' if none. */
function phrase(text: string, prefix = false): string {
  const lex = lexemes(text);
  if (lex.length === 0) return '';
  const parts = lex.map(quoteLexeme);
  if (prefix) parts[parts.length - 1] += ':*';
  return parts.length === 1 ? parts[0] : `(${parts.join(' <-> ')})`;
}

/** A query term as a tsquery (FTS5's termExpr): '' when it has no lexeme. */
export function termQuery(t: QueryTerm): string {
  switch (t.kind) {
    case 'word':
    case 'phrase':
      return phrase(t.text);
    case 'prefix':
      return phrase(t.text, true);
    case 'ident': {
      const alts = new Set<string>();
      const joined = phrase(joinedForm(t.text));
      if (joined) alts.add(joined);
      // The parts anywhere in the memory: `handleWebhook.ts` finds `handle_webhook.ts`.
      const parts = identParts(t.text)
        .map((p) => phrase(p))
        .filter(Boolean);
      if (parts.length > 1) alts.add(`(${parts.join(' & ')})`);
      else if (parts.length === 1) alts.add(parts[0]);
      return alts.size > 1 ? `(${[...alts].join(' | ')})` : ([...alts][0] ?? '');
    }
  }
}

/** The single phrase a term is ranked by: an identifier by its joined form (`src_db_ts`). */
export function rankQuery(t: QueryTerm): string {
  if (t.kind !== 'ident') return termQuery(t);
  const joined = phrase(joinedForm(t.text));
  if (joined) return joined;
  const parts = identParts(t.text);
  return parts.length ? phrase(parts.join(' ')) : '';
}

export const anyOf = (qs: readonly string[]) => qs.map((q) => `(${q})`).join(' | ');
export const allOf = (qs: readonly string[]) => qs.map((q) => `(${q})`).join(' & ');
/** `core` without any of the excluded queries. */
export const without = (core: string, excluded: readonly string[]) =>
  excluded.length ? `(${core}) & !(${anyOf(excluded)})` : core;
