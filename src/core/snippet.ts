/**
 * Excerpts for search hits: the window of a step's text that holds the most distinct query words,
 * with those words marked «like this». Computed here rather than by FTS5's snippet(), which
 * re-runs the whole query per hit; word matching uses the same Porter stems as the index.
 */
import { identParts, joinedForm } from './idents.js';
import { porterStem } from './porter.js';
import type { ParsedQuery } from './query.js';

const TOKEN = /[\p{L}\p{N}_]+/gu;

/** The stems and joined identifier forms a query looks for. */
function queryKeys(query: ParsedQuery): string[] {
  const keys = new Set<string>();
  for (const t of query.terms) {
    if (t.kind === 'ident') {
      keys.add(joinedForm(t.text));
      for (const p of identParts(t.text)) keys.add(porterStem(p));
    } else for (const w of t.text.split(' ')) keys.add(porterStem(w));
  }
  return [...keys].filter((k) => k.length >= 1);
}

interface Tok {
  start: number;
  end: number;
  key: number; // index of the matched query key, or -1
}

export function makeSnippet(text: string, query: ParsedQuery, maxWords = 24): string {
  const keys = queryKeys(query);
  const prefixes = keys.map((k) => k.slice(0, 2));
  const toks: Tok[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const raw = m[0];
    const low = raw.toLowerCase();
    let key = -1;
    for (let i = 0; i < keys.length && key === -1; i++) {
      if (!low.startsWith(prefixes[i])) {
        // identifiers: a part of the token may match (`getUserName` for "user")
        if (!(raw.length > 5 && /[_A-Z]/.test(raw.slice(1)))) continue;
        if (identParts(raw).some((p) => porterStem(p) === keys[i])) key = i;
        continue;
      }
      if (low === keys[i] || porterStem(low) === keys[i] || joinedForm(raw) === keys[i]) key = i;
    }
    toks.push({ start: m.index, end: m.index + raw.length, key });
    if (toks.length > 20_000) break;
  }
  if (toks.length === 0) return text.slice(0, 200);
  // Slide a window of maxWords tokens; keep the one with the most distinct keys (then the most hits).
  let best = 0;
  let bestScore = -1;
  const counts = new Map<number, number>();
  let hits = 0;
  for (let i = 0; i < toks.length; i++) {
    const k = toks[i].key;
    if (k >= 0) {
      counts.set(k, (counts.get(k) ?? 0) + 1);
      hits++;
    }
    const out = i - maxWords;
    if (out >= 0 && toks[out].key >= 0) {
      const c = counts.get(toks[out].key)! - 1;
      if (c === 0) counts.delete(toks[out].key);
      else counts.set(toks[out].key, c);
      hits--;
    }
    const score = counts.size * 1000 + hits;
    if (score > bestScore) {
      bestScore = score;
      best = Math.max(0, i - maxWords + 1);
    }
  }
  // Start a little before the first hit in the window, so it reads in context.
  let first = best;
  while (first < Math.min(toks.length, best + maxWords) && toks[first].key < 0) first++;
  const from = Math.max(0, Math.min(best, first - 3));
  const to = Math.min(toks.length, from + maxWords);
  let out = '';
  let pos = toks[from].start;
  for (let i = from; i < to; i++) {
    const t = toks[i];
    out += text.slice(pos, t.start);
    out += t.key >= 0 ? `«${text.slice(t.start, t.end)}»` : text.slice(t.start, t.end);
    pos = t.end;
  }
  const tail = to < toks.length ? '…' : text.slice(pos).replace(/\s+$/, '');
  return `${from > 0 ? '…' : ''}${out}${tail}`;
}
