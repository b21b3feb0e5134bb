/**
 * Query expansion for the vocabulary gap: a question that shares few words with its answer
 * ("what is the rate limit on the milestone webhook?" → "…allows 120 requests per minute per API
 * key, enforced by a token bucket…"). Each plain word of the question brings its related words
 * (core/related-words.ts) and its other spellings; the index is asked once more for steps holding
 * them beside the question's rarest word, and lexical.ts credits a related word, at a share of
 * its term's weight, only in a text that lacks the term itself — so a step holding the question's
 * own words always scores at least as much on each of them.
 */
import { porterStem } from '../core/porter.js';
import type { ParsedQuery, QueryTerm, RelatedTerm } from '../core/query.js';
import { relatedWords, spellingVariants } from '../core/related-words.js';
import type { Candidate, SearchFilters, TranscriptStore } from '../ports/transcript-store.js';

/** Related words taken per question term, and in all (each costs the index a count). */
const PER_TERM = 3;
const MAX_RELATED = 6;
/** Steps asked of the index for the expanded query. */
export const EXPANSION_CANDIDATES = 40;
/**
 * A related word in more than this share of the steps is too common to find an answer by itself
 * (and reading its matches is the costly part): once its count is known it is only credited.
 */
const PROBE_MAX_SHARE = 0.02;
/** Question words read beside the related words (the rarest: they say what it is about). */
const ANCHORS = 1;

/** The related words of a parsed query's plain words, none already one of its terms. */
export function relatedTermsOf(query: ParsedQuery): RelatedTerm[] {
  const own = new Set(query.terms.flatMap((t) => t.text.split(' ').map(porterStem)));
  const seen = new Set<string>();
  const out: RelatedTerm[] = [];
  query.terms.forEach((t, of) => {
    if (t.kind !== 'word') return;
    let n = 0;
    for (const w of [...spellingVariants(t.text), ...relatedWords(t.text)]) {
      const stem = porterStem(w);
      if (own.has(stem) || seen.has(stem) || n >= PER_TERM || out.length >= MAX_RELATED) continue;
      seen.add(stem);
      out.push({ text: w, of });
      n++;
    }
  });
  return out;
}

/**
 * Candidates the question's related words find (search.ts keeps those no earlier read took),
 * and each related term's document frequency (set on it). Only the related words in at most PROBE_MAX_SHARE of
 * the steps are read (the question's own words were read already; the ranking credits every
 * related word it finds in any candidate). The related words are counted first, all in one read
 * of no steps, so which steps are read never depends on the questions asked before.
 */
export function expandedCandidates(
  store: TranscriptStore,
  query: ParsedQuery,
  related: RelatedTerm[],
  filters: SearchFilters,
  /** The question's terms' document frequencies, as the first read told. */
  df: readonly number[],
  total: number,
): Candidate[] {
  // Their counts, in one read of no steps (the index caches what it counts, and drops it when the
  // store changes).
  const { stats } = store.candidates(
    {
      raw: related.map((r) => r.text).join(' '),
      terms: related.map((r): QueryTerm => ({ kind: 'word', text: r.text })),
      excluded: [],
    },
    {},
    0,
  );
  related.forEach((r, i) => {
    r.df = stats.df[i] ?? 0;
  });
  const probe = related.filter((r) => r.df !== undefined && r.df > 0 && r.df <= total * PROBE_MAX_SHARE);
  if (probe.length === 0) return [];
  // The question's rarest word without related words, beside them: its pairs with each related
  // word are the steps about the same thing in other words ("order dashboard" … "packages/").
  const expanded = new Set(related.map((r) => r.of));
  const anchor = query.terms
    .map((t, i) => ({ t, df: df[i] ?? 0, i }))
    .filter((a) => !expanded.has(a.i) && a.df > 0)
    .sort((a, b) => a.df - b.df)
    .slice(0, ANCHORS)
    .map((a) => a.t);
  const terms = [...anchor, ...probe.map((r): QueryTerm => ({ kind: 'word', text: r.text }))];
  const { candidates } = store.candidates(
    { raw: query.raw, terms, excluded: query.excluded },
    filters,
    EXPANSION_CANDIDATES,
  );
  return candidates;
}
