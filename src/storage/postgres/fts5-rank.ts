/**
 * SQLite FTS5's matching, bm25() and snippet() in JS, for the PostgreSQL stores whose answers show
 * them (skills: matched fields and candidates by bm25; wiki: bm25 scores and snippets). The GIN
 * index narrows the rows (fts5-text.ts looseTermQuery); each row's columns are then tokenized
 * here and matched phrase by phrase, so results, scores and snippets equal SQLite's.
 *
 * The query mirrors sqlite/fts-query.ts anyTermsExpr: the terms OR-ed, `NOT` the excluded terms,
 * an identifier `"joined" OR ("part" AND "part")`, phrases numbered left to right as FTS5 numbers
 * them. A phrase reports instances in a row only when the branch holding it matches (as FTS5's
 * cursor leaves an AND's phrases elsewhere when the AND does not match).
 */
import { identParts, joinedForm } from '../../core/idents.js';
import type { ParsedQuery, QueryTerm } from '../../core/query.js';
import { type Sql, sql } from '../sql.js';
import { type FtsToken, ftsTokens, ftsWords, looseTermQuery, phraseQuery, stem } from './fts5-text.js';

interface Phrase {
  stems: string[];
  prefix: boolean;
  /** The phrase as an exact tsquery ('' when it has no words), to count the rows holding it. */
  tsquery: string;
}

type Node = { phrase: number } | { op: 'and' | 'or'; children: Node[] };

/** A compiled query: its phrases, each term's expression, the excluded terms'. */
export interface Fts5Query {
  phrases: Phrase[];
  /** One per query term; null for a term with nothing to match (FTS5's empty termExpr). */
  terms: (Node | null)[];
  excluded: Node | null;
}

export function compileQuery(q: ParsedQuery): Fts5Query {
  const phrases: Phrase[] = [];
  const phrase = (text: string, prefix = false): Node => {
    phrases.push({ stems: ftsWords(text).map(stem), prefix, tsquery: phraseQuery(text, { prefix }) });
    return { phrase: phrases.length - 1 };
  };
  const term = (t: QueryTerm): Node | null => {
    switch (t.kind) {
      case 'word':
      case 'phrase':
        return phrase(t.text);
      case 'prefix':
        return phrase(t.text, true);
      case 'ident': {
        // Alternatives keyed by their FTS5 text, as termExpr's Set dedupes them.
        const alts = new Map<string, () => Node>();
        const joined = joinedForm(t.text);
        const parts = identParts(t.text);
        if (joined) alts.set(`"${joined}"`, () => phrase(joined));
        if (parts.length > 1)
          alts.set(`(${parts.join('" AND "')})`, () => ({
            op: 'and',
            children: parts.map((p) => phrase(p)),
          }));
        else if (parts.length === 1) alts.set(`"${parts[0]}"`, () => phrase(parts[0]!));
        const nodes = [...alts.values()].map((f) => f());
        return nodes.length > 1 ? { op: 'or', children: nodes } : (nodes[0] ?? null);
      }
    }
  };
  const terms = q.terms.map(term);
  const excl = q.excluded.map(term).filter((n): n is Node => n !== null);
  return {
    phrases,
    terms,
    excluded: excl.length === 0 ? null : excl.length === 1 ? excl[0]! : { op: 'or', children: excl },
  };
}

/**
 * FTS5's `"p1" OR "p2" …` (`"p" *` for a prefix phrase): one term per phrase, in order, nothing
 * excluded. For a query compiled to single phrases before it reaches FTS5 (the memory store ranks
 * each distinctive term by one phrase).
 */
export function compilePhrases(list: readonly { text: string; prefix?: boolean }[]): Fts5Query {
  const phrases: Phrase[] = list.map(({ text, prefix = false }) => ({
    stems: ftsWords(text).map(stem),
    prefix,
    tsquery: phraseQuery(text, { prefix }),
  }));
  return { phrases, terms: phrases.map((_, i) => ({ phrase: i })), excluded: null };
}

/**
 * SQL text whose parameters were written by `add` (fts5-rank.ts builds text), as an Sql. A
 * parameter may be added before text that comes ahead of it (the WHERE is built first), so each
 * is marked with its number and the values are taken in the order the marks appear.
 */
export function asSql(build: (add: (v: unknown) => string) => string | null): Sql | null {
  const added: unknown[] = [];
  // A NUL never occurs in the code-built text around the parameters.
  const text = build((v) => `\u0000${added.push(v) - 1}\u0000`);
  if (text === null) return null;
  const parts = text.split(/\u0000(\d+)\u0000/);
  const strings = parts.filter((_, i) => i % 2 === 0);
  const values = parts.filter((_, i) => i % 2 === 1).map((n) => added[Number(n)]);
  return sql(strings, ...values);
}

/**
 * SQL of the figures bm25 needs and the rows that may match, for a table with a `fts` tsvector
 * and an `ntok` token count: one statement, one row per candidate (a single row of NULL columns
 * when there is none). `add` binds a parameter; `where` filters the candidates (never the
 * figures: FTS5's are table-wide). Null when no term can match anything.
 */
export function candidatesSql(
  q: ParsedQuery,
  compiled: Fts5Query,
  table: string,
  cols: string,
  where: string,
  add: (v: unknown) => string,
): string | null {
  const loose = q.terms.map(looseTermQuery).filter(Boolean);
  if (loose.length === 0) return null;
  const counts = compiled.phrases.map((p) =>
    p.tsquery ? `(SELECT count(*) FROM ${table} WHERE fts @@ ${add(p.tsquery)}::tsquery)` : '0',
  );
  return `SELECT s.rows, s.tokens, s.phrase_rows, c.*
    FROM (SELECT (SELECT count(*) FROM ${table})::int AS rows,
                 (SELECT COALESCE(sum(ntok), 0) FROM ${table})::float8 AS tokens,
                 ${counts.length ? `ARRAY[${counts.join(', ')}]` : "'{}'"}::int[] AS phrase_rows) s
    LEFT JOIN LATERAL (SELECT ${cols} FROM ${table}
      WHERE fts @@ ${add(loose.map((x) => `(${x})`).join(' | '))}::tsquery AND (${where})) c ON true`;
}

/** Stems of words seen lately: rows share most of their words, and stemming is the costly part. */
const stems = new Map<string, string>();
function cachedStem(word: string): string {
  let s = stems.get(word);
  if (s === undefined) {
    if (stems.size >= 50_000) stems.clear();
    s = stem(word);
    stems.set(word, s);
  }
  return s;
}

/** One phrase occurrence: phrase index, column, token offset in the column (FTS5's xInst). */
export interface Instance {
  phrase: number;
  col: number;
  offset: number;
}

/** A row's columns, tokenized, ready to match. */
export class Fts5Row {
  readonly tokens: FtsToken[][];
  private readonly stems: string[][];
  private readonly unmatched: number;
  private readonly hits = new Map<number, number[][]>();

  /**
   * `columns`: the row's column texts, or a row already tokenized (matched anew against `query`).
   * `unmatched`: tokens of the row's columns that are not given because no phrase can match them
   * (a column of filter tags weighted 0): they count in the row's size only.
   */
  constructor(
    readonly query: Fts5Query,
    columns: readonly string[] | Fts5Row,
    unmatched = 0,
  ) {
    if (columns instanceof Fts5Row) {
      this.tokens = columns.tokens;
      this.stems = columns.stems;
      this.unmatched = columns.unmatched;
      return;
    }
    this.tokens = columns.map(ftsTokens);
    this.stems = this.tokens.map((ts) => ts.map((t) => cachedStem(t.word)));
    this.unmatched = unmatched;
  }

  /** Tokens in the row (FTS5's xColumnSize(-1)). */
  get size(): number {
    return this.stems.reduce((n, s) => n + s.length, this.unmatched);
  }

  /** Offsets of a phrase in each column. */
  private at(i: number): number[][] {
    let out = this.hits.get(i);
    if (out) return out;
    const { stems: want, prefix } = this.query.phrases[i]!;
    out = this.stems.map((col) => {
      const offs: number[] = [];
      if (want.length === 0) return offs;
      for (let o = 0; o + want.length <= col.length; o++) {
        let ok = true;
        for (let k = 0; k < want.length && ok; k++) {
          const w = col[o + k]!;
          ok = prefix && k === want.length - 1 ? w.startsWith(want[k]!) : w === want[k];
        }
        if (ok) offs.push(o);
      }
      return offs;
    });
    this.hits.set(i, out);
    return out;
  }

  /** Whether `node` matches, within the given columns only when `col` is set (FTS5's `col : (…)`). */
  matches(node: Node | null, col?: number): boolean {
    if (!node) return false;
    if ('phrase' in node) {
      const at = this.at(node.phrase);
      return col === undefined ? at.some((o) => o.length > 0) : (at[col]?.length ?? 0) > 0;
    }
    return node.op === 'and'
      ? node.children.every((c) => this.matches(c, col))
      : node.children.some((c) => this.matches(c, col));
  }

  /** FTS5's `(t1 OR t2 …) NOT (excluded)`. */
  matchesQuery(): boolean {
    return this.query.terms.some((t) => this.matches(t)) && !this.matches(this.query.excluded);
  }

  /** The instances FTS5 reports for a matching row, ordered by column, offset, then phrase. */
  instances(): Instance[] {
    const live: number[] = [];
    const collect = (node: Node | null) => {
      if (!node || !this.matches(node)) return;
      if ('phrase' in node) live.push(node.phrase);
      else for (const c of node.children) collect(c);
    };
    for (const t of this.query.terms) collect(t);
    const out: Instance[] = [];
    for (const p of new Set(live))
      this.at(p).forEach((offs, col) => {
        for (const offset of offs) out.push({ phrase: p, col, offset });
      });
    return out.sort((a, b) => a.col - b.col || a.offset - b.offset || a.phrase - b.phrase);
  }
}

/** Table-wide figures bm25 needs: rows, tokens, and rows holding each phrase. */
export interface Bm25Stats {
  rows: number;
  tokens: number;
  phraseRows: readonly number[];
}

/** FTS5's bm25(weights…) as a positive score (SQLite's rank negated). */
export function bm25(row: Fts5Row, stats: Bm25Stats, weights: readonly number[]): number {
  const freq = new Array<number>(row.query.phrases.length).fill(0);
  for (const i of row.instances()) freq[i.phrase]! += weights[i.col] ?? 1;
  return bm25Of(freq, row.size, stats);
}

/**
 * FTS5's bm25 from a row's figures: each phrase's instances summed by their column weights, and
 * the row's size in tokens (for callers that know them without tokenizing the row).
 */
export function bm25Of(freq: readonly number[], size: number, stats: Bm25Stats): number {
  const k1 = 1.2;
  const b = 0.75;
  const avgdl = stats.tokens / stats.rows;
  const d = size;
  let score = 0;
  for (let i = 0; i < freq.length; i++) {
    const hit = stats.phraseRows[i] ?? 0;
    let idf = Math.log((stats.rows - hit + 0.5) / (hit + 0.5));
    if (idf <= 0) idf = 1e-6;
    score += idf * ((freq[i]! * (k1 + 1.0)) / (freq[i]! + k1 * (1 - b + (b * d) / avgdl)));
  }
  return score;
}

/**
 * FTS5's snippet(table, col, open, close, ellipsis, nToken) for a matching row: the window of
 * `nToken` tokens of column `col` scoring best (new phrases 1000, repeats 1, a sentence start a
 * bonus), its phrase instances marked. The text is the column as stored.
 */
export function snippet(
  row: Fts5Row,
  col: number,
  text: string,
  marks: { open: string; close: string; ellipsis: string; tokens: number },
): string {
  const { open, close, ellipsis, tokens: nToken } = marks;
  const toks = row.tokens[col]!;
  const size = toks.length;
  const insts = row.instances().filter((i) => i.col === col);
  const phraseSize = (p: number) => row.query.phrases[p]!.stems.length;
  // Sentence starts: token 0, and tokens after whitespace that follows `.` or `:`.
  const firsts: number[] = [];
  toks.forEach((t, pos) => {
    if (pos === 0) {
      firsts.push(0);
      return;
    }
    let i = t.start - 1;
    while (i >= 0 && ' \t\n\r'.includes(text[i]!)) i--;
    if (i !== t.start - 1 && (text[i] === '.' || text[i] === ':')) firsts.push(pos);
  });
  const score = (from: number): { score: number; adj: number } => {
    const seen = new Set<number>();
    let s = 0;
    let first = -1;
    let last = 0;
    for (const i of insts) {
      if (i.offset < from || i.offset >= from + nToken) continue;
      s += seen.has(i.phrase) ? 1 : 1000;
      seen.add(i.phrase);
      if (first < 0) first = i.offset;
      last = i.offset + phraseSize(i.phrase);
    }
    // C integer division truncates toward zero.
    let adj = first - Math.trunc((nToken - (last - first)) / 2);
    if (adj + nToken > size) adj = size - nToken;
    if (adj < 0) adj = 0;
    return { score: s, adj };
  };
  let best = 0;
  let bestScore = 0;
  for (const inst of insts) {
    const s = score(inst.offset);
    if (s.score > bestScore) {
      bestScore = s.score;
      best = s.adj;
    }
    if (firsts.length && size > nToken) {
      let j = 0;
      while (j < firsts.length - 1 && firsts[j + 1]! <= inst.offset) j++;
      if (firsts[j]! < inst.offset) {
        const bonus = score(firsts[j]!).score + (firsts[j] === 0 ? 120 : 100);
        if (bonus > bestScore) {
          bestScore = bonus;
          best = firsts[j]!;
        }
      }
    }
  }
  // Coalesced instances (overlapping phrases merged), as FTS5's CInstIter walks them.
  const spans: { start: number; end: number }[] = [];
  for (const i of insts) {
    const end = i.offset + phraseSize(i.phrase) - 1;
    const cur = spans[spans.length - 1];
    if (cur && i.offset <= cur.end) cur.end = Math.max(cur.end, end);
    else spans.push({ start: i.offset, end });
  }
  let si = 0;
  while (si < spans.length && spans[si]!.start < best) si++;
  const iter = () => spans[si] ?? { start: -1, end: -1 };
  const rangeEnd = best + nToken - 1;
  let out = best > 0 ? ellipsis : '';
  let off = 0;
  let isOpen = false;
  toks.forEach((t, pos) => {
    if (pos < best || pos > rangeEnd) return;
    if (best && pos === best) off = t.start;
    if (isOpen && (pos <= iter().start || iter().start < 0) && t.start > off) {
      out += close;
      isOpen = false;
    }
    if (pos === iter().start && !isOpen) {
      out += text.slice(off, t.start) + open;
      off = t.start;
      isOpen = true;
    }
    if (pos === iter().end) {
      if (!isOpen) {
        out += open;
        isOpen = true;
      }
      out += text.slice(off, t.end);
      off = t.end;
      si++;
    }
    if (pos === rangeEnd) {
      if (isOpen) {
        if (iter().start >= 0 && pos >= iter().start) {
          out += text.slice(off, t.end);
          off = t.end;
        }
        out += close;
        isOpen = false;
      }
      out += text.slice(off, t.end);
      off = t.end;
    }
  });
  if (isOpen) out += close;
  return out + (rangeEnd >= size - 1 ? text.slice(off) : ellipsis);
}

/** The figures columns of candidatesSql's rows. */
export interface Bm25Row {
  rows: number;
  tokens: number;
  phrase_rows: number[];
}

export const bm25Stats = (r: Bm25Row): Bm25Stats => ({
  rows: r.rows,
  tokens: r.tokens,
  phraseRows: r.phrase_rows,
});
