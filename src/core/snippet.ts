/**
 * Excerpts for search hits: the sentence of a step's text that holds the most distinct query words,
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

/** Words that open a reason or consequence: a snippet keeps the clause they start. */
const REASON = /^(because|since|so|therefore|hence|thus|as|due|reason|why)$/i;
/** Words that surely give a reason (`so` and `as` often do not). */
const GIVES_REASON = /^(because|since|therefore|hence|due)$/i;
/** Between two tokens, a sentence ends: `.`, `!` or `?` before a space, or a line break. */
const SENTENCE_END = /[.!?](?:["')\]]*)(?:\s|$)|\n/;

/**
 * The excerpt of a hit: the sentence (or two) holding the most distinct query words, its reason
 * clause kept ("…because invalidation kept serving stale prices"), query words marked «so». For
 * a why-question (`why`), a sentence giving a reason counts 1.5 more query words.
 * A sentence longer than `maxWords` is cut to the window around its query words, stretched (up
 * to half as long again) to reach the end of a reason clause.
 */
export function makeSnippet(
  text: string,
  query: ParsedQuery,
  maxWords = 24,
  { why = false }: { why?: boolean } = {},
): string {
  const keys = queryKeys(query);
  const prefixes = keys.map((k) => k.slice(0, 2));
  const toks: Tok[] = [];
  const sentence: number[] = [];
  let sn = 0;
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
    const prev = toks[toks.length - 1];
    if (prev && SENTENCE_END.test(text.slice(prev.end, m.index))) sn++;
    toks.push({ start: m.index, end: m.index + raw.length, key });
    sentence.push(sn);
    if (toks.length > 20_000) break;
  }
  if (toks.length === 0) return text.slice(0, 200);

  // Score each sentence: distinct query words first, then hits.
  const bounds: { from: number; to: number; score: number }[] = [];
  for (let i = 0; i < toks.length; ) {
    let j = i;
    const seen = new Set<number>();
    let hits = 0;
    while (j < toks.length && sentence[j] === sentence[i]) {
      if (toks[j].key >= 0) {
        seen.add(toks[j].key);
        hits++;
      }
      j++;
    }
    // A why-question's answer is the sentence giving a reason: it counts as 1.5 more query words.
    let reason = 0;
    if (why && seen.size > 0)
      for (let k = i; k < j; k++)
        if (GIVES_REASON.test(text.slice(toks[k].start, toks[k].end))) {
          reason = 1500;
          break;
        }
    bounds.push({ from: i, to: j, score: seen.size * 1000 + reason + hits });
    i = j;
  }
  let best = 0;
  for (let k = 1; k < bounds.length; k++) if (bounds[k].score > bounds[best].score) best = k;
  let from = bounds[best].from;
  let to = bounds[best].to;
  // A second sentence when it gives the reason, or when the first is too short to read alone.
  const next = bounds[best + 1];
  if (next && (REASON.test(text.slice(toks[next.from].start, toks[next.from].end)) || to - from < 8))
    if (next.to - from <= maxWords * 1.5) to = next.to;

  const limit = Math.max(4, maxWords);
  if (to - from > limit) {
    // The window of `limit` tokens with the most distinct query words, a little before its first.
    let wBest = from;
    let wScore = -1;
    const counts = new Map<number, number>();
    let hits = 0;
    for (let i = from; i < to; i++) {
      const k = toks[i].key;
      if (k >= 0) {
        counts.set(k, (counts.get(k) ?? 0) + 1);
        hits++;
      }
      const out = i - limit;
      if (out >= from && toks[out].key >= 0) {
        const c = counts.get(toks[out].key)! - 1;
        if (c === 0) counts.delete(toks[out].key);
        else counts.set(toks[out].key, c);
        hits--;
      }
      const score = counts.size * 1000 + hits;
      if (score > wScore) {
        wScore = score;
        wBest = Math.max(from, i - limit + 1);
      }
    }
    let first = wBest;
    while (first < Math.min(to, wBest + limit) && toks[first].key < 0) first++;
    const start = Math.max(from, Math.min(wBest, first - 3));
    let end = Math.min(to, start + limit);
    // Keep a reason clause that starts inside the window: up to half as long again.
    for (let i = start; i < end; i++) {
      if (REASON.test(text.slice(toks[i].start, toks[i].end)) && i > first) {
        end = Math.min(to, Math.max(end, i + 10), start + Math.floor(limit * 1.5));
        break;
      }
    }
    from = start;
    to = end;
  }

  let out = '';
  let pos = toks[from].start;
  for (let i = from; i < to; i++) {
    const t = toks[i];
    out += text.slice(pos, t.start);
    out += t.key >= 0 ? `«${text.slice(t.start, t.end)}»` : text.slice(t.start, t.end);
    pos = t.end;
  }
  // The sentence's closing punctuation, or the rest of the text after its last word.
  const rest = to < toks.length ? text.slice(pos, toks[to].start) : text.slice(pos);
  const closing = /^[^\s\p{L}\p{N}]*/u.exec(rest)?.[0] ?? '';
  const ended = to >= toks.length || SENTENCE_END.test(rest);
  const tail =
    to < toks.length ? (ended ? closing.trimEnd() : `${closing.trimEnd()}…`) : rest.replace(/\s+$/, '');
  return `${from > 0 ? '…' : ''}${out}${tail}`;
}
