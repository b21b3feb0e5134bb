/**
 * Duplicate detection without an LLM, for memories.
 *
 * - Exact: the normalized text (Unicode NFKC, lowercase, diacritics and punctuation dropped,
 *   apostrophes joined, whitespace collapsed) has the same 64-bit hash; callers confirm by
 *   comparing normalized texts, so a hash collision cannot merge two different memories.
 * - Near: Jaccard similarity over the set of words and word pairs (1- and 2-shingles) is at least
 *   NEAR_DUPLICATE_THRESHOLD. Pairs keep word order, so "deploys run on Fridays" and "deploys never
 *   run on Fridays" stay apart; two guards keep apart texts that differ in a fact a word count can
 *   miss: a different set of numbers ("port 5432" vs "port 5433") or of negations.
 * - Finding candidates without a scan: MinHash (40 hashes) in 10 bands of 4 (locality-sensitive
 *   hashing). Two texts share a band key with probability 1 − (1 − J⁴)¹⁰: 99.5% at J = 0.8, 7.8%
 *   at J = 0.3, about 0.006% for unrelated texts; candidates are then checked exactly.
 */
import { fnv1a } from './hash.js';

export const NEAR_DUPLICATE_THRESHOLD = 0.8;

/** The canonical form duplicates are compared on. */
export function normalizeText(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(/(\p{L})['’](\p{L})/gu, '$1$2')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** 64 bits (two independent 32-bit hashes) of the normalized text, as 16 hex digits. */
export function contentHash(text: string): string {
  const n = normalizeText(text);
  const a = fnv1a(n);
  // A second FNV-1a over the reversed string with another basis: independent enough that a
  // collision of both is out of reach for a personal store.
  let b = 0x9e3779b9;
  for (let i = n.length - 1; i >= 0; i--) {
    b ^= n.charCodeAt(i);
    b = Math.imul(b, 0x01000193);
  }
  return a.toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

export function words(text: string): string[] {
  const n = normalizeText(text);
  return n ? n.split(' ') : [];
}

const NEGATIONS = new Set(
  `not no never none nothing nobody nowhere neither nor cannot without dont doesnt didnt isnt arent wasnt
werent wont wouldnt shouldnt cant couldnt mustnt havent hasnt hadnt avoid`.split(/\s+/),
);

/** What near-duplicate comparison needs of one text, computed once. */
export interface Fingerprint {
  shingles: Set<string>;
  numbers: string;
  negations: string;
  size: number;
}

export function fingerprint(text: string): Fingerprint {
  const w = words(text);
  const shingles = new Set<string>(w);
  for (let i = 0; i + 1 < w.length; i++) shingles.add(`${w[i]} ${w[i + 1]}`);
  const sortedSet = (xs: string[]) => [...new Set(xs)].sort().join(' ');
  return {
    shingles,
    numbers: sortedSet(w.filter((x) => /\d/.test(x))),
    negations: sortedSet(w.filter((x) => NEGATIONS.has(x))),
    size: w.length,
  };
}

export function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const x of small) if (large.has(x)) shared++;
  return shared / (a.size + b.size - shared);
}

/** Similarity in 0..1, or 0 when a guard (numbers, negations) says the texts state different facts. */
export function similarity(a: Fingerprint, b: Fingerprint): number {
  if (a.numbers !== b.numbers || a.negations !== b.negations) return 0;
  return jaccard(a.shingles, b.shingles);
}

export function isNearDuplicate(
  a: Fingerprint,
  b: Fingerprint,
  threshold = NEAR_DUPLICATE_THRESHOLD,
): boolean {
  // Texts of one or two words are too short to be "nearly" the same: only exact matches count.
  if (a.size < 3 || b.size < 3) return false;
  return similarity(a, b) >= threshold;
}

const BANDS = 10;
const ROWS = 4;
const SEEDS: readonly number[] = (() => {
  let x = 0x2545f491;
  return Array.from({ length: BANDS * ROWS }, () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x >>> 0;
  });
})();

/** murmur3's finalizer: a cheap, well-mixed 32-bit permutation. */
function mix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * Locality-sensitive band keys of a text within a scope (e.g. space + project): texts that are
 * near-duplicates share at least one key with high probability. Keys are 52-bit integers.
 * Texts too short to be near-duplicates (fewer than 3 words) get none.
 */
export function bandKeys(fp: Fingerprint, scope: string): number[] {
  if (fp.size < 3) return [];
  const mins = new Array<number>(SEEDS.length).fill(0xffffffff);
  for (const sh of fp.shingles) {
    const h = fnv1a(sh);
    for (let i = 0; i < SEEDS.length; i++) {
      const v = mix32(h ^ SEEDS[i]);
      if (v < mins[i]) mins[i] = v;
    }
  }
  const s = fnv1a(scope);
  const keys: number[] = [];
  for (let b = 0; b < BANDS; b++) {
    let hi = mix32(s ^ Math.imul(b + 1, 0x9e3779b9));
    let lo = mix32(s + b);
    for (let r = 0; r < ROWS; r++) {
      hi = mix32(hi ^ mins[b * ROWS + r]);
      lo = mix32(lo + Math.imul(mins[b * ROWS + r], 0x01000193));
    }
    keys.push((hi & 0xfffff) * 0x100000000 + lo);
  }
  return keys;
}
