/**
 * Full text for memories on PostgreSQL, tokenized by fts5-text.ts (SQLite FTS5's tokenizer and
 * stemmer) rather than by a text search config, so PostgreSQL matches exactly what SQLite matches.
 *
 * The vector holds SQLite's `memories_fts` columns one after another, weighted title A, labels B,
 * content C, identifiers D (the weights only tell the fields apart: ranking is FTS5's bm25 over the
 * columns, computed in JS by fts5-rank.ts from `fts5Columns`).
 *
 * Filter tags, as in SQLite's `tags` column: the vector also holds one positionless lexeme per
 * type, label, project directory (and each one above it) and status, spelt with `#` and `:` so no
 * word can produce one. Unranked matches AND the filter's tags into the tsquery, so the GIN index
 * intersects posting lists instead of handing every match of a common word to the filter; ranked
 * matches never do. Values are hashed so any path or label is one short lexeme; a collision only
 * widens a match the SQL filter rechecks.
 */
import { fnv1a } from '../../core/hash.js';
import { identTerms } from '../../core/idents.js';
import type { MemoryStatus } from '../../core/memory.js';
import { ancestors } from '../../core/paths.js';
import type { MemoryFilter } from '../../ports/memory-store.js';
import { ftsWords, lexeme, quoteLexeme, TsvectorBuilder } from './fts5-text.js';

export { allOf, anyOf, rankQuery, termQuery, without } from './fts5-text.js';

/** SQLite's bm25 column weights for memories_fts (title, content, labels, idents, tags). */
export const BM25_WEIGHTS = [2.0, 1.0, 1.5, 0.5, 0.0] as const;

/** Positions skipped between fields, so a phrase never matches across two of them. */
const FIELD_GAP = 8;

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

/** The text of the memories_fts columns a phrase can match: title, content, labels, idents. */
export function fts5Columns(m: Pick<IndexedMemoryText, 'title' | 'content' | 'labels'>): string[] {
  return [m.title, m.content, m.labels.join(' '), identTerms(`${m.title}\n${m.content}`)];
}

/**
 * Tokens in SQLite's `tags` column for a memory (sqlite/memory-sql.ts tagsOf: space, type, status,
 * one per label, one per project directory or "no project"; each a single token).
 */
export function fts5TagTokens(labels: number, project: string | null): number {
  return 3 + labels + (project ? ancestors(project).length : 1);
}

/** PostgreSQL's tsvector limits (fts5-text.ts clamps past them): see `MemoryIndex.exact`. */
const MAX_POS = 16_383;
const MAX_POSITIONS = 256;
const MAX_LEXEME = 200;

/** What the store writes for a memory's full text. */
export interface MemoryIndex {
  /** The tsvector literal: title (A), labels (B), content (C), identifier forms (D), tags. */
  vector: string;
  /** The FTS5 row size: the tokens SQLite's memories_fts row holds (bm25's row count figures). */
  tokens: number;
  /**
   * Whether the vector holds every token exactly as FTS5 reads it, so a search can take phrase
   * counts from it instead of tokenizing the text again (memory-search.ts): false when a limit was
   * hit (a position past 16,383, over 256 positions of one lexeme, a word over 200 characters).
   */
  exact: boolean;
}

export function memoryIndex(m: IndexedMemoryText): MemoryIndex {
  const [title, content, labels, idents] = fts5Columns(m).map(ftsWords) as [
    string[],
    string[],
    string[],
    string[],
  ];
  const v = new TsvectorBuilder();
  v.words(title, 'A');
  v.gap(FIELD_GAP).words(labels, 'B');
  v.gap(FIELD_GAP).words(content, 'C');
  v.gap(FIELD_GAP).words(idents, 'D');
  for (const t of tagsOf(m)) v.tag(t);
  const words = title.length + labels.length + content.length + idents.length;
  let exact = words + 3 * FIELD_GAP <= MAX_POS;
  const all = [title, labels, content, idents];
  if (exact) exact = all.every((ws) => ws.every((w) => w.length <= MAX_LEXEME));
  if (exact && words > MAX_POSITIONS) {
    const seen = new Map<string, number>();
    for (const ws of all)
      for (const w of ws) {
        const lex = lexeme(w);
        const n = (seen.get(lex) ?? 0) + 1;
        seen.set(lex, n);
        if (n > MAX_POSITIONS) exact = false;
      }
  }
  return { vector: v.toString(), tokens: words + fts5TagTokens(m.labels.length, m.project), exact };
}

/** The memories_fts column (fts5Columns order) each tsvector weight holds. */
const COLUMN_OF: Record<string, number> = { A: 0, C: 1, B: 2, D: 3 };

/**
 * ts_rank_cd's weights ({D,C,B,A}, at most 1): the bm25 column weights over 4. With
 * normalization 0, ts_rank_cd of a single lexeme is the sum of these weights over its positions
 * (one cover per position, each worth its weight), so 4× it is FTS5's weighted phrase count. The
 * weights are eighths, so the float4 it returns holds that sum exactly.
 */
const CD_WEIGHTS = `{${['D', 'C', 'B', 'A'].map((w) => BM25_WEIGHTS[COLUMN_OF[w]!]! / 4).join(',')}}`;

type CountedPhrase = { stems: readonly string[]; prefix: boolean };

/** A phrase counted by ts_rank_cd (one whole word); others are read from the vector's positions. */
const oneWord = (ph: CountedPhrase) => !ph.prefix && ph.stems.length === 1;

/**
 * SQL columns `cd` and `hits` from which phraseFreqs counts each phrase's instances in a row with
 * an exact vector `fts` (memoryIndex): `cd` ts_rank_cd per one-word phrase (a lookup in the
 * vector), `hits` for the others the lexemes they need (a whole word, or a prefix for the last
 * word of a prefix phrase), one `lexeme positions weights` line each. `add` binds a parameter.
 */
export function phraseCountsSql(
  phrases: readonly CountedPhrase[],
  fts: string,
  add: (v: unknown) => string,
): string {
  const cd = phrases
    .filter(oneWord)
    .map((ph) => `ts_rank_cd('${CD_WEIGHTS}', ${fts}, ${add(quoteLexeme(ph.stems[0]!))}::tsquery, 0)`);
  const words = new Set<string>();
  const prefixes = new Set<string>();
  for (const ph of phrases.filter((ph) => !oneWord(ph)))
    ph.stems.forEach((s, k) => {
      (ph.prefix && k === ph.stems.length - 1 ? prefixes : words).add(s);
    });
  const hits =
    words.size + prefixes.size === 0
      ? 'NULL::text'
      : `(SELECT string_agg(u.lexeme || ' ' || array_to_string(u.positions, ',') || ' ' ||
                            array_to_string(u.weights, ','), E'\n')
          FROM unnest(${fts}) u
          WHERE u.lexeme = ANY(${add([...words])}::text[]) OR u.lexeme ^@ ANY(${add([...prefixes])}::text[]))`;
  return `ARRAY[${cd.join(', ')}]::float8[] AS cd, ${hits} AS hits`;
}

/**
 * Each phrase's instances in a row summed by column weight (what FTS5's bm25 sums), from
 * phraseCountsSql's columns: a one-word phrase's by ts_rank_cd; a phrase of n words occurs at
 * position p when its words stand at p … p+n-1 (fields are apart, so never across two of them),
 * the last one by prefix for a prefix phrase. Null when no phrase occurs (the row does not match).
 */
export function phraseFreqs(
  phrases: readonly CountedPhrase[],
  cd: readonly number[],
  hits: string | null,
): number[] | null {
  const at = new Map<string, Map<number, number>>();
  for (const line of hits ? hits.split('\n') : []) {
    const [lex, pos, ws] = line.split(' ') as [string, string, string];
    const w = ws.split(',');
    const m = new Map<number, number>();
    pos.split(',').forEach((p, i) => {
      m.set(Number(p), BM25_WEIGHTS[COLUMN_OF[w[i]!]!]!);
    });
    at.set(lex, m);
  }
  let any = false;
  let next = 0;
  const freqs = phrases.map((ph) => {
    if (oneWord(ph)) {
      // The sum is a multiple of 0.5 (and exact in float4); rounding only drops float noise.
      const f = Math.round(cd[next++]! * 8) / 2;
      if (f > 0) any = true;
      return f;
    }
    const { stems, prefix } = ph;
    if (stems.length === 0) return 0;
    const sets = stems.map((s, k) => {
      if (!(prefix && k === stems.length - 1)) return at.has(s) ? [at.get(s)!] : [];
      return [...at].filter(([lex]) => lex.startsWith(s)).map(([, m]) => m);
    });
    let f = 0;
    for (const first of sets[0]!)
      for (const [p, w] of first)
        if (sets.every((set, k) => k === 0 || set.some((m) => m.has(p + k)))) {
          f += w;
          any = true;
        }
    return f;
  });
  return any ? freqs : null;
}
