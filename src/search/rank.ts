/**
 * Final ranking of the index's candidates. The index ranked them by their rarer words only (see
 * storage/sqlite/retrieval.ts); here the other query words are credited from the step's own text,
 * BM25-style: score = (bm25 + Σ idf of each other word present × the step kind's weight) × a lift
 * when every word is present × a mild recency boost (30-day half-life, at most +15%). Identical
 * texts collapse to their best hit.
 */
import type { Candidate } from '../ports/transcript-store.js';

export const STRICT_BONUS = 1.5;
const RECENCY_MAX = 0.15;
const HALF_LIFE_DAYS = 30;
const DAY_MS = 86_400_000;

export interface Ranked extends Candidate {
  score: number;
}

export function recencyBoost(timestamp: string | null, now: number): number {
  if (!timestamp) return 1;
  const t = Date.parse(timestamp);
  if (Number.isNaN(t)) return 1;
  const ageDays = Math.max(0, (now - t) / DAY_MS);
  return 1 + RECENCY_MAX * 0.5 ** (ageDays / HALF_LIFE_DAYS);
}

/** Inverse document frequency as FTS5's bm25 computes it. */
export function idf(df: number, total: number): number {
  const n = Math.max(total, df + 1);
  return Math.max(1e-6, Math.log((n - df + 0.5) / (df + 0.5)));
}

/** Column weights of the index (migrations/001), for words credited outside it. */
const KIND_WEIGHT: Record<string, number> = {
  prompt: 1.3,
  response: 1,
  summary: 1,
  reasoning: 0.5,
  tool_call: 0.6,
  tool_result: 0.2,
};

export interface Coverage {
  /** Which query terms each candidate contains (aligned with the query's terms). */
  matched: (c: Candidate) => boolean[];
  /** IDF weight per query term; 0 for terms the index does not have. */
  weights: number[];
  /** Terms whose weight the index's bm25 already includes. */
  inIndexRank: boolean[];
}

export function rankCandidates(candidates: Candidate[], now: number, coverage?: Coverage): Ranked[] {
  const ranked = candidates.map((c) => {
    let base = c.bm25;
    let strict = c.strict;
    if (coverage) {
      const m = coverage.matched(c);
      const kw = KIND_WEIGHT[c.kind] ?? 1;
      strict = true;
      coverage.weights.forEach((w, i) => {
        if (!m[i]) {
          if (w > 0) strict = false;
        } else if (!c.ranked || !coverage.inIndexRank[i]) base += w * kw;
      });
    }
    return { ...c, strict, score: base * (strict ? STRICT_BONUS : 1) * recencyBoost(c.timestamp, now) };
  });
  ranked.sort((a, b) => b.score - a.score || b.rowid - a.rowid);
  // The same text in several places (a fork replaying its parent, a prompt echoed twice) is one hit.
  const seen = new Set<string>();
  return ranked.filter((r) => {
    const key = `${r.kind}:${r.hash}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
