/**
 * BM25 over a candidate's own text and, separately, over its neighbour field, from the index's
 * term statistics and the candidate's text — the same figures on every backend. Term frequencies are counted without tokenizing the whole text:
 * a native indexOf finds each stem's first letters and only those words are stemmed (cached).
 */
import { identParts, joinedForm } from '../core/idents.js';
import { splitContext } from '../core/neighbours.js';
import { porterStem } from '../core/porter.js';
import type { ParsedQuery, QueryTerm } from '../core/query.js';
import type { TermStatistics } from '../ports/transcript-store.js';
import { WEIGHTS } from './weights.js';

const WORD = /[\p{L}\p{N}_]/u;
function isWordChar(ch: string | undefined): boolean {
  if (ch === undefined) return false;
  const c = ch.charCodeAt(0);
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95 || (c >= 65 && c <= 90);
  return WORD.test(ch);
}

/** Stems of words seen in candidate texts: words repeat across steps and queries. */
const STEMS = new Map<string, string>();
function stemOf(word: string): string {
  let s = STEMS.get(word);
  if (s === undefined) {
    if (STEMS.size > 100_000) STEMS.clear();
    s = porterStem(word);
    STEMS.set(word, s);
  }
  return s;
}

const isUpper = (c: string | undefined) => c !== undefined && c >= 'A' && c <= 'Z';
const isLowerOrDigit = (c: string | undefined) =>
  c !== undefined && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'));

/** Whether a camelCase part starts at `i` of the original text (`buildAccount`, `HTTPServer`). */
function camelStart(orig: string, i: number): boolean {
  if (!isUpper(orig[i])) return false;
  const p = orig[i - 1];
  return isLowerOrDigit(p) || (isUpper(p) && isLowerOrDigit(orig[i + 1]));
}

/**
 * The original text when it holds camelCase words and lines up with its lowercase form, so word
 * counts can also see an identifier's parts — the index holds them (`core/idents.ts`), and a
 * step naming `buildAccountRows` must be credited for "account" as the index found it by it.
 */
function camelSource(text: string, lower: string): string | undefined {
  return text.length === lower.length && /[a-z0-9][A-Z]/.test(text) ? text : undefined;
}

/** Characters that join words into an identifier, a path or a branch name (`perf/drop-redis`, `a.b`, `a_b`). */
const JOINER = /[/\\_.=:@#]/;

/**
 * Whether the word at `from`–`to` of `lower` sits inside an identifier, path or branch name: the
 * whitespace-delimited run around it joins words with `/`, `_`, `.`, `=`, `:` …, or the word is a
 * camelCase part. A hyphen alone does not ("in-process LRU" is prose).
 */
function inIdentifier(lower: string, from: number, to: number, camelPart: boolean): boolean {
  if (camelPart) return true;
  // The run's ends, at most 120 characters away (a longer run is a path, found in its first part).
  let a = from;
  while (a > 0 && from - a < 120 && lower.charCodeAt(a - 1) > 32) a--;
  let z = to;
  while (z < lower.length && z - to < 120 && lower.charCodeAt(z) > 32) z++;
  for (let i = a + 1; i < z - 1; i++)
    if (JOINER.test(lower[i]!) && isWordChar(lower[i - 1]) && isWordChar(lower[i + 1])) return true;
  return false;
}

/**
 * The unweighted count of the last countStem/countBigram call (every occurrence as 1), beside the
 * weighted count it returns: the difference is what identifier-only matches lost.
 */
let lastRaw = 0;

/**
 * What every word with this stem starts with, to find candidates with `indexOf`: a longer stem's
 * first 4 letters. Porter's stemmer changes at most a stem's last letter against the word, to an
 * `i` (key → kei, days → dai) or an added `e` (making → make, sizing → size): a short stem ending
 * so is searched without it.
 */
function probeOf(stem: string): string {
  if (stem.length > 4) return stem.slice(0, 4);
  return stem.length > 1 && (stem.endsWith('i') || stem.endsWith('e')) ? stem.slice(0, -1) : stem;
}

/**
 * Occurrences of words whose stem is `stem` (or that start with it, for a prefix) in `lower`:
 * whole words and snake_case parts, and with `orig` (see camelSource) camelCase parts too. An
 * occurrence inside an identifier, path or branch name counts `identShare` (1: as any other).
 */
function countStem(lower: string, stem: string, prefix: boolean, orig?: string, identShare = 1): number {
  if (!stem) return 0;
  const probe = prefix ? stem.slice(0, 4) : probeOf(stem);
  const matches = (word: string) => (prefix ? word.startsWith(stem) : word === stem || stemOf(word) === stem);
  let n = 0;
  let raw = 0;
  for (let i = lower.indexOf(probe); i !== -1; i = lower.indexOf(probe, i + 1)) {
    // A word start, or a snake_case part, or (with the original text) a camelCase part.
    const atWord = i === 0 || lower[i - 1] === '_' || !isWordChar(lower[i - 1]);
    if (!atWord && !(orig && camelStart(orig, i))) continue;
    let end = i + probe.length;
    while (end < lower.length && isWordChar(lower[end]) && lower[end] !== '_') end++;
    let hit = atWord && matches(lower.slice(i, end));
    if (!hit && orig) {
      let part = i + 1;
      while (part < end && !camelStart(orig, part)) part++;
      hit = part < end && matches(lower.slice(i, part));
    }
    if (hit) {
      raw++;
      n += identShare < 1 && (lower[i - 1] === '_' || inIdentifier(lower, i, end, !atWord)) ? identShare : 1;
    }
    // Without camelCase parts to look into, the rest of the word cannot start a match.
    if (!orig) i = end - 1;
  }
  lastRaw = raw;
  return n;
}

/** Occurrences of `needle` in `lower` as a whole token (an identifier's joined or typed form). */
function countToken(lower: string, needle: string): number {
  if (!needle) return 0;
  let n = 0;
  for (let i = lower.indexOf(needle); i !== -1; i = lower.indexOf(needle, i + needle.length)) {
    if (!isWordChar(lower[i - 1]) && !isWordChar(lower[i + needle.length])) n++;
  }
  return n;
}

/**
 * Occurrences of a word with stem `a` followed by a word with stem `b` (only spaces, hyphens or
 * underscores between): the query's adjacent words as a phrase in the text.
 */
function countBigram(lower: string, a: string, b: string, identShare = 1): number {
  lastRaw = 0;
  if (!a || !b) return 0;
  const probe = probeOf(a);
  let n = 0;
  let raw = 0;
  for (let i = lower.indexOf(probe); i !== -1; i = lower.indexOf(probe, i + 1)) {
    if (i > 0 && isWordChar(lower[i - 1])) continue;
    let end = i + probe.length;
    while (end < lower.length && isWordChar(lower[end]) && lower[end] !== '_') end++;
    const word = lower.slice(i, end);
    if (word !== a && stemOf(word) !== a) continue;
    let j = end;
    while (j < lower.length && (lower[j] === ' ' || lower[j] === '-' || lower[j] === '_')) j++;
    if (j === end || j - end > 2) continue;
    let k = j;
    while (k < lower.length && isWordChar(lower[k]) && lower[k] !== '_') k++;
    const next = lower.slice(j, k);
    if (next && (next === b || stemOf(next) === b)) {
      raw++;
      n += identShare < 1 && inIdentifier(lower, i, k, false) ? identShare : 1;
    }
    i = end - 1;
  }
  lastRaw = raw;
  return n;
}

interface Pattern {
  /** Every stem must occur; the term's count is the least of theirs. */
  stems: string[];
  prefix: boolean;
  /** Whole forms an identifier is also found by (`webhook.ts`, `webhook_ts`). */
  forms: string[];
}

function patternOf(t: QueryTerm): Pattern {
  if (t.kind === 'ident') {
    const typed = t.text.toLowerCase();
    return {
      stems: identParts(t.text).map(porterStem),
      prefix: false,
      forms: [...new Set([typed, joinedForm(t.text)])],
    };
  }
  if (t.kind === 'prefix') return { stems: [t.text], prefix: true, forms: [] };
  return { stems: t.text.split(' ').map(porterStem), prefix: false, forms: [] };
}

/**
 * A term's occurrences in `lower`, those inside identifiers counting `identShare`; `lastRaw` is
 * left holding the count with every occurrence as 1.
 */
function termCount(lower: string, p: Pattern, orig?: string, identShare = 1): number {
  let whole = 0;
  for (const f of p.forms) whole += countToken(lower, f);
  if (p.stems.length === 0) {
    lastRaw = whole;
    return whole;
  }
  let least = Number.POSITIVE_INFINITY;
  let leastRaw = Number.POSITIVE_INFINITY;
  for (const s of p.stems) {
    least = Math.min(least, countStem(lower, s, p.prefix, orig, identShare));
    leastRaw = Math.min(leastRaw, lastRaw);
    if (leastRaw === 0) break;
  }
  lastRaw = Math.max(whole, leastRaw);
  return Math.max(whole, least);
}

/** BM25's inverse document frequency (never negative). */
export function idf(df: number, total: number): number {
  const n = Math.max(total, df);
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/** A candidate's lexical figures. */
export interface LexicalScore {
  /** BM25 over the step's own text. */
  text: number;
  /** BM25 over each side of its neighbour field: the head of the turn before it, and after it. */
  previous: number;
  next: number;
  /** Share (0–1) of the query's idf held by the text or the neighbour field. */
  coverage: number;
  /** Which terms the text or the neighbour field holds (aligned with the query's terms). */
  matched: boolean[];
  /**
   * What `text` lost because some of its words matched only inside identifiers, paths or branch
   * names (`identShare` below 1): `text` + this is the score with every occurrence as 1.
   */
  identifier: number;
}

/** How a query's words are counted. */
export interface LexicalOptions {
  /**
   * A plain word's occurrence inside an identifier, path or branch name counts this much in the
   * step's own text (1: as any other). A natural-language question's words in prose say more
   * than the same words joined into `perf/drop-redis-cache`.
   */
  identShare?: number;
  /**
   * Words of the query that are people's names (lowercased): matched as typed, not by stem, so
   * "Ines" (Porter: "in") does not find every "in", and weighing `nameWeight` of their idf (a
   * person's name says who more than what).
   */
  names?: ReadonlySet<string>;
  nameWeight?: number;
}

/** A scorer for one query: patterns and idf weights computed once, then applied per candidate. */
export function createLexicalScorer(
  query: ParsedQuery,
  stats: TermStatistics,
  { identShare = 1, names, nameWeight = 1 }: LexicalOptions = {},
) {
  const factor = (t: QueryTerm) => (names?.has(t.text) ? nameWeight : 1);
  const patterns = query.terms.map(
    (t): Pattern =>
      t.kind === 'word' && names?.has(t.text) && porterStem(t.text) !== t.text
        ? { stems: [], prefix: false, forms: [t.text] }
        : patternOf(t),
  );
  // Identifier terms are meant to match identifiers: only plain words are discounted there.
  const shares = query.terms.map((t) => (t.kind === 'ident' ? 1 : identShare));
  const weights = query.terms.map((t, i) => {
    const df = stats.df[i] ?? 0;
    return df > 0 ? idf(df, stats.total) * factor(t) : 0;
  });
  const totalWeight = weights.reduce((a, b) => a + b, 0) || 1;
  const { k1, b, contextAvgChars } = WEIGHTS;
  const avg = Math.max(1, stats.avgChars);
  const sat = (tf: number) => (tf * (k1 + 1)) / (tf + k1);

  // Adjacent one-word terms of the query, each pair weighing a share of its rarer word's idf.
  const bigrams: { a: string; b: string; w: number }[] = [];
  for (let i = 0; i + 1 < query.terms.length; i++) {
    const x = query.terms[i]!;
    const y = query.terms[i + 1]!;
    const w = Math.min(weights[i]!, weights[i + 1]!);
    if (x.kind === 'word' && y.kind === 'word' && !x.text.includes(' ') && !y.text.includes(' ') && w > 0)
      bigrams.push({ a: porterStem(x.text), b: porterStem(y.text), w: WEIGHTS.phrase * w });
  }
  // Related words (search/expansion.ts), per term: each weighs a share of the lesser of its
  // term's idf and its own (a common related word says little). A term the store never holds has
  // no weight: its related words weigh their own idf (the question's word is missing, which is
  // when the answer's other words matter most).
  const related: ({ p: Pattern; w: number }[] | undefined)[] = query.terms.map(() => undefined);
  for (const r of query.related ?? []) {
    if (!r.df) continue;
    const own = idf(r.df, stats.total) * factor(query.terms[r.of]!);
    const w = weights[r.of] || own;
    related[r.of] ??= [];
    related[r.of]!.push({
      p: { stems: [porterStem(r.text)], prefix: false, forms: [] },
      w: WEIGHTS.related * Math.min(w, own),
    });
  }
  const relatedScore = (alt: { p: Pattern; w: number }[], lower: string, norm: number): number => {
    let best = 0;
    for (const a of alt) {
      const n = termCount(lower, a.p);
      if (n > 0) best = Math.max(best, a.w * sat(n / norm));
    }
    return best;
  };
  const sideAvg = contextAvgChars / 2;
  const score = (text: string, chars: number, context: string): LexicalScore => {
    const lower = text.toLowerCase();
    const camel = camelSource(text, lower);
    const sides = splitContext(context ? context.toLowerCase() : '');
    const normText = 1 - b + (b * Math.max(chars, text.length)) / avg;
    // Never below 1: a short neighbour must not outweigh a step's own words.
    const normPrev = Math.max(1, 1 - b + (b * sides.previous.length) / sideAvg);
    const normNext = Math.max(1, 1 - b + (b * sides.next.length) / sideAvg);
    let inText = 0;
    let previous = 0;
    let next = 0;
    let covered = 0;
    let identifier = 0;
    const matched = patterns.map((p, i) => {
      const w = weights[i]!;
      const alt = related[i];
      if (w === 0 && !alt) return false;
      const t = w === 0 ? 0 : termCount(lower, p, camel, shares[i]) / normText;
      if (t > 0 && lastRaw / normText > t) identifier += w * (sat(lastRaw / normText) - sat(t));
      const before = sides.previous && w > 0 ? termCount(sides.previous, p) / normPrev : 0;
      const after = sides.next && w > 0 ? termCount(sides.next, p) / normNext : 0;
      if (t === 0 && before === 0 && after === 0) {
        if (!alt) return false;
        // Only a text lacking the term is credited with its related words, at a share of it.
        const a = relatedScore(alt, lower, normText);
        const ab = sides.previous ? relatedScore(alt, sides.previous, normPrev) : 0;
        const aa = sides.next ? relatedScore(alt, sides.next, normNext) : 0;
        if (a + ab + aa > 0) covered += WEIGHTS.related * w;
        inText += a;
        previous += ab;
        next += aa;
        return false;
      }
      inText += t > 0 || !alt ? w * sat(t) : relatedScore(alt, lower, normText);
      previous +=
        before > 0 || !alt || !sides.previous ? w * sat(before) : relatedScore(alt, sides.previous, normPrev);
      next += after > 0 || !alt || !sides.next ? w * sat(after) : relatedScore(alt, sides.next, normNext);
      covered += w;
      return true;
    });
    for (const g of bigrams) {
      const n = countBigram(lower, g.a, g.b, identShare);
      if (n > 0) inText += g.w * sat(n / normText);
      if (lastRaw > n) identifier += g.w * (sat(lastRaw / normText) - sat(n / normText));
    }
    return { text: inText, previous, next, coverage: covered / totalWeight, matched, identifier };
  };
  // A word found in no step weighs as the rarest word would: its answer says it otherwise.
  const unfound = query.terms.reduce(
    (a, t, i) => a + ((stats.df[i] ?? 0) > 0 ? 0 : idf(0, stats.total) * factor(t)),
    0,
  );
  return Object.assign(score, {
    /**
     * Share (0–1) of the question's weight in words found somewhere in the store, a word found
     * nowhere counted at the weight of the rarest: what any step's coverage can reach at most.
     */
    found: weights.some((w) => w > 0) ? totalWeight / (totalWeight + unfound) : 0,
    /** Share (0–1) of the query's idf held by the terms marked (several steps' `matched`, OR-ed). */
    share: (matched: readonly boolean[]) =>
      matched.reduce((a, m, i) => a + (m ? weights[i]! : 0), 0) / totalWeight,
  });
}
