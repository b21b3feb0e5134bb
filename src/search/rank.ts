/**
 * Ranking beyond bm25: matches of every term (the strict tier) are lifted, recent steps get a mild
 * boost (30-day half-life, at most +15%), and identical texts are collapsed to their best hit.
 */
import type { Candidate } from '../ports/transcript-store.js';

export const STRICT_BONUS = 1.6;
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

export function rankCandidates(candidates: Candidate[], now: number): Ranked[] {
  const ranked = candidates.map((c) => ({
    ...c,
    score: c.bm25 * (c.strict ? STRICT_BONUS : 1) * recencyBoost(c.timestamp, now),
  }));
  ranked.sort((a, b) => b.score - a.score || a.rowid - b.rowid);
  // The same text in several places (a fork replaying its parent, a prompt echoed twice) is one hit.
  const seen = new Set<string>();
  return ranked.filter((r) => {
    const key = `${r.kind}:${r.hash}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
