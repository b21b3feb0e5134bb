/**
 * Ranking of memory search hits. Text relevance leads; importance and recency adjust it:
 *
 *   score = bm25 × (1.6 if every query term matched, else 1)
 *                × (0.75 + 0.5 × importance)                     // 0.75 … 1.25
 *                × (1 + 0.2 × 0.5^(age_days / 90))               // 1.0 … 1.2, age of updated_at
 *
 * Ties (equal scores) go to the more important memory, then the more recently updated, then the
 * id. The factors are bounded (together at most ×2 between the least and most favoured memory),
 * so a clearly better text match is never buried under an important but unrelated one.
 */
import type { MemoryCandidate } from '../ports/memory-store.js';

export const STRICT_BONUS = 1.6;
const RECENCY_MAX = 0.2;
const HALF_LIFE_DAYS = 90;
const DAY_MS = 86_400_000;

export const importanceFactor = (importance: number) => 0.75 + 0.5 * Math.max(0, Math.min(1, importance));

export function recencyFactor(updatedAt: string, now: number): number {
  const t = Date.parse(updatedAt);
  if (Number.isNaN(t)) return 1;
  const ageDays = Math.max(0, (now - t) / DAY_MS);
  return 1 + RECENCY_MAX * 0.5 ** (ageDays / HALF_LIFE_DAYS);
}

export interface RankedMemory extends MemoryCandidate {
  score: number;
}

export function rankMemories(candidates: MemoryCandidate[], now: number): RankedMemory[] {
  const ranked = candidates.map((c) => ({
    ...c,
    score:
      c.bm25 *
      (c.strict ? STRICT_BONUS : 1) *
      importanceFactor(c.importance) *
      recencyFactor(c.updated_at, now),
  }));
  ranked.sort(
    (a, b) =>
      b.score - a.score ||
      b.importance - a.importance ||
      (a.updated_at < b.updated_at ? 1 : a.updated_at > b.updated_at ? -1 : 0) ||
      (a.id < b.id ? -1 : 1),
  );
  return ranked;
}
