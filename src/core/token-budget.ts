/**
 * Token budgets (pure). The default estimate is ceil(UTF-16 code units / 4): deterministic, no
 * tokenizer shipped, and close to what BPE tokenizers give for English prose and code. A caller
 * with an exact tokenizer passes its own counter; the packer then re-checks the assembled text
 * with it, so the guarantee (never over budget) holds for any counter.
 */

/** Counts the tokens of a text. Must be deterministic and return a whole number ≥ 0. */
export type TokenCounter = (text: string) => number;

export const estimateTokens: TokenCounter = (text) => Math.ceil(text.length / 4);

/** One thing that may go into a packed document. */
export interface PackItem {
  /** Allocation tier, 0 first (rules), then 1, 2, 3. */
  tier: number;
  /** Keys of the headers this item sits under (outermost first); a header is paid for once. */
  headers: string[];
  /** The item's own text, newline included. Never cut: it fits whole or is left out. */
  text: string;
}

export interface PackLayout {
  /** Always emitted first. */
  head: string;
  /** Header text by key, emitted before the first selected item under it. */
  headers: Record<string, string>;
  /** The closing note for what was left out (given the indexes left out); '' when nothing was. */
  footer: (omitted: number[]) => string;
  /** The longest footer the omissions could produce (reserved before allocating). */
  worstFooter: string;
}

export interface PackOptions {
  budget: number;
  /** Share of what is left after tier 0 that each later tier may claim in the first pass. */
  shares: Record<number, number>;
  count?: TokenCounter;
}

export interface PackResult {
  text: string;
  tokens: number;
  /** Indexes of the items kept, in input order. */
  selected: number[];
  /** Indexes left out, in input order. */
  omitted: number[];
  /** Tokens of each item alone (by index). */
  itemTokens: number[];
  /** Tokens left when allocation ended (what an omitted item was measured against). */
  left: number;
}

/** Items in input order with their headers; the input order is the document order. */
export function assemble(items: readonly PackItem[], keep: ReadonlySet<number>, layout: PackLayout): string {
  const out: string[] = [layout.head];
  const opened = new Set<string>();
  items.forEach((it, i) => {
    if (!keep.has(i)) return;
    for (const h of it.headers)
      if (!opened.has(h)) {
        opened.add(h);
        out.push(layout.headers[h] ?? '');
      }
    out.push(it.text);
  });
  const omitted = items.map((_, i) => i).filter((i) => !keep.has(i));
  out.push(layout.footer(omitted));
  return out.join('');
}

/**
 * Fill a budget by priority: tier 0 takes what fits; each later tier first takes up to its share
 * of the rest, then what is still free goes to the tiers in order. Items are never cut: one that
 * does not fit is skipped (a smaller one after it may still fit). With the default estimate the
 * accounting is exact in characters; with a custom counter items are measured one by one and the
 * assembled text is re-counted, dropping the last items kept until it fits.
 */
export function pack(items: readonly PackItem[], layout: PackLayout, opts: PackOptions): PackResult {
  const count = opts.count ?? estimateTokens;
  const exact = count === estimateTokens;
  // Units: characters for the estimate (ceil(c/4) ≤ budget ⟺ c ≤ 4·budget), tokens otherwise.
  const units = exact ? (s: string) => s.length : count;
  const cap = exact ? opts.budget * 4 : opts.budget;
  const headerUnits = new Map(Object.entries(layout.headers).map(([k, v]) => [k, units(v)]));
  const itemUnits = items.map((it) => units(it.text));
  const keep = new Set<number>();
  const opened = new Set<string>();
  let used = units(layout.head) + units(layout.worstFooter);

  const costOf = (i: number) =>
    itemUnits[i] + items[i].headers.reduce((s, h) => s + (opened.has(h) ? 0 : (headerUnits.get(h) ?? 0)), 0);
  const take = (i: number, c: number) => {
    keep.add(i);
    for (const h of items[i].headers) opened.add(h);
    used += c;
  };

  const tiers = [...new Set(items.map((it) => it.tier))].filter((t) => t !== 0).sort((a, b) => a - b);
  items.forEach((it, i) => {
    if (it.tier !== 0) return;
    const c = costOf(i);
    if (used + c <= cap) take(i, c);
  });
  const rest = Math.max(0, cap - used);
  for (const t of tiers) {
    const share = rest * (opts.shares[t] ?? 0);
    let tierUsed = 0;
    items.forEach((it, i) => {
      if (it.tier !== t) return;
      const c = costOf(i);
      if (tierUsed + c <= share && used + c <= cap) {
        take(i, c);
        tierUsed += c;
      }
    });
  }
  for (const t of tiers)
    items.forEach((it, i) => {
      if (it.tier !== t || keep.has(i)) return;
      const c = costOf(i);
      if (used + c <= cap) take(i, c);
    });

  let text = assemble(items, keep, layout);
  let tokens = count(text);
  // Only a custom counter can land here (it need not add up chunk by chunk).
  while (tokens > opts.budget && keep.size > 0) {
    keep.delete(Math.max(...keep));
    text = assemble(items, keep, layout);
    tokens = count(text);
  }
  if (tokens > opts.budget) {
    text = '';
    tokens = count(text);
  }
  const all = items.map((_, i) => i);
  const toTokens = (u: number) => (exact ? Math.ceil(u / 4) : u);
  return {
    text,
    tokens,
    selected: all.filter((i) => keep.has(i)),
    omitted: all.filter((i) => !keep.has(i)),
    itemTokens: itemUnits.map(toTokens),
    left: Math.max(0, opts.budget - tokens),
  };
}
