/**
 * Seeded randomness for the corpus generator. Everything the generator writes derives from these
 * streams (never Math.random or Date.now), so one seed always yields the same bytes.
 */

/** 32-bit FNV-1a over the parts, then an avalanche mix: a stable seed for a named sub-stream. */
export function hashSeed(...parts: (string | number)[]): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    const s = `${part}\u0000`;
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const HEX = '0123456789abcdef';
const B62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** mulberry32 with helpers. Cheap enough to create one per session. */
export class Random {
  private s: number;

  constructor(seed: number) {
    this.s = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Integer in [lo, hi] inclusive. */
  range(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /**
   * Zipf-like pick (s ≈ 1): the item at rank k (0-based) is chosen with probability about
   * ln((k+2)/(k+1)) / ln(n+1), so lists ordered most-common-first get realistic word frequencies.
   */
  zipf<T>(items: readonly T[]): T {
    const i = Math.floor((items.length + 1) ** this.next()) - 1;
    return items[i < items.length ? i : items.length - 1];
  }

  /** Log-uniform number in [lo, hi). */
  logUniform(lo: number, hi: number): number {
    return lo * (hi / lo) ** this.next();
  }

  /** A fresh generator seeded from this one (for independent sub-streams). */
  fork(): Random {
    return new Random(Math.floor(this.next() * 4294967296));
  }

  hex(len: number): string {
    let out = '';
    for (let i = 0; i < len; i++) out += HEX[this.int(16)];
    return out;
  }

  base62(len: number): string {
    let out = '';
    for (let i = 0; i < len; i++) out += B62[this.int(62)];
    return out;
  }

  /** RFC 4122 version-4 shaped UUID. */
  uuid(): string {
    const h = this.hex(32);
    const variant = HEX[8 + this.int(4)];
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }

  /** Fisher–Yates, in place. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const tmp = items[i];
      items[i] = items[j];
      items[j] = tmp;
    }
    return items;
  }
}
