/**
 * Identifier handling for search. Prose tokenizers split `src/db.ts` into `src db ts` and lose the
 * whole; we index, beside the text, each identifier's joined form (`src_db_ts`) and its parts
 * (`parse transcript line` for `parseTranscriptLine`), so identifiers match whole and in parts.
 * The FTS tokenizer keeps `_` inside tokens, so snake_case names already match whole in the text.
 */

const CAMEL_SPLIT = /([a-z0-9])([A-Z])|([A-Z]+)([A-Z][a-z])/g;

/** True when a token looks like code rather than a plain word. */
export function isIdentifier(token: string): boolean {
  if (/[_./:\\]/.test(token)) return /[A-Za-z]/.test(token);
  if (/[a-z][A-Z]/.test(token)) return true; // camelCase
  if (/-/.test(token)) return /\d/.test(token) || /[A-Z]{2}/.test(token); // ERR-42, X-API
  return false;
}

/** `src/db.ts` → `src_db_ts`; `ERR_SOCKET_TIMEOUT` → `err_socket_timeout`. */
export function joinedForm(ident: string): string {
  return ident
    .toLowerCase()
    .replace(/[^a-z0-9_$]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** Parts of an identifier, lowercased: camelCase, snake_case and path separators split. */
export function identParts(ident: string): string[] {
  return ident
    .replace(CAMEL_SPLIT, (_m, a, b, c, d) => (a ? `${a} ${b}` : `${c} ${d}`))
    .split(/[^A-Za-z0-9]+/)
    .map((p) => p.toLowerCase())
    .filter((p) => p.length >= 2);
}

// Character classes for the scanner: 1 = word char (letter, digit, _ or $), 2 = joiner (. / : \ -).
const CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z0-9_$]/.test(ch)) CLASS[c] = 1;
  else if ('./:\\-'.includes(ch)) CLASS[c] = 2;
}

/**
 * The extra text indexed beside a step (see addForms), deduped and capped so a huge step cannot
 * blow the index up. A hand-written scanner (not a regex) because it
 * runs over every indexed character: plain words are recognised and skipped in one pass.
 */
export function identTerms(text: string, max = 400): string {
  // One regex test rejects identifier-free text outright (and flattens a concatenated string,
  // which would otherwise make every charCodeAt below walk the concatenation).
  if (!MAYBE_IDENT.test(text)) return '';
  const out = new Set<string>();
  const seen = new Set<string>();
  const n = text.length;
  let i = 0;
  while (i < n && out.size < max) {
    const c = text.charCodeAt(i);
    if (c >= 128 || CLASS[c] !== 1) {
      i++;
      continue;
    }
    // A run of word chars and joiners; note what makes it code-like as we go.
    const start = i;
    let lastWord = i;
    let joiner = false;
    let hyphenOnly = true;
    let underscore = false;
    let camel = false;
    let digit = false;
    let prevLower = false;
    while (i < n) {
      const d = text.charCodeAt(i);
      const k = d < 128 ? CLASS[d] : 0;
      if (k === 0) break;
      if (k === 1) {
        lastWord = i;
        if (d === 95) underscore = true;
        else if (d >= 48 && d <= 57) digit = true;
        const upper = d >= 65 && d <= 90;
        if (upper && prevLower) camel = true;
        prevLower = d >= 97 && d <= 122;
      } else {
        joiner = true;
        if (d !== 45) hyphenOnly = false;
        prevLower = false;
      }
      i++;
    }
    if (!joiner && !underscore && !camel) continue; // a plain word
    const tok = text.slice(start, lastWord + 1);
    if (tok.length < 3) continue;
    if (joiner && hyphenOnly && !underscore && !camel && !digit && !/[A-Z]{2}/.test(tok)) continue; // long-running
    if (!/[A-Za-z]/.test(tok)) continue;
    if (seen.has(tok)) continue;
    seen.add(tok);
    addForms(tok, out);
  }
  return [...out].join(' ');
}

const MAYBE_IDENT = /[A-Za-z0-9][_./:\\-][A-Za-z0-9]|[a-z][A-Z]|_/;

const isUpper = (c: number) => c >= 65 && c <= 90;
const isLower = (c: number) => c >= 97 && c <= 122;
const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * Add what the prose tokenizer does not already index for a token: the joined form of a token
 * with separators (`src/db.ts` → `src_db_ts`; its pieces `src db ts` are already words of the
 * text), and the parts of each camelCase or snake_case word (`parseTranscriptLine` → `parse
 * transcript line`; the tokenizer keeps those whole). This is the indexing hot path.
 */
function addForms(tok: string, out: Set<string>): void {
  const low = tok.toLowerCase();
  let segStart = 0;
  let segments = 0;
  let lastTwo = 0; // where the last two segments start (a file name with its extension)
  let prevSeg = 0;
  for (let i = 0; i <= tok.length; i++) {
    const c = i < tok.length ? tok.charCodeAt(i) : 47;
    if (c < 128 && CLASS[c] === 1) continue;
    // tok[segStart, i) is one run of word chars between separators
    if (i > segStart) {
      segments++;
      lastTwo = prevSeg;
      prevSeg = segStart;
      addParts(tok, low, segStart, i, out);
    }
    segStart = i + 1;
  }
  if (segments > 1) addJoined(low, out);
  // `src/payments/webhook.ts` is asked for as `webhook.ts` too.
  if (segments > 2) addJoined(low.slice(lastTwo), out);
}

function addJoined(low: string, out: Set<string>): void {
  const joined = low.replace(/[^a-z0-9_$]+/g, '_').replace(/^_+|_+$/g, '');
  if (/[a-z]/.test(joined)) out.add(joined);
}

/** Parts of one word run that has an underscore or a camelCase hump. */
function addParts(tok: string, low: string, start: number, end: number, out: Set<string>): void {
  let compound = false;
  for (let i = start + 1; i < end; i++) {
    const c = tok.charCodeAt(i);
    if (c === 95 || (isUpper(c) && (isLower(tok.charCodeAt(i - 1)) || isDigit(tok.charCodeAt(i - 1))))) {
      compound = true;
      break;
    }
  }
  if (!compound) return;
  let from = -1;
  for (let i = start; i <= end; i++) {
    const c = i < end ? tok.charCodeAt(i) : 0;
    const alnum = isUpper(c) || isLower(c) || isDigit(c);
    let boundary = !alnum;
    if (alnum && isUpper(c) && from >= 0 && i > from) {
      const prev = tok.charCodeAt(i - 1);
      const next = i + 1 < end ? tok.charCodeAt(i + 1) : 0;
      boundary = isLower(prev) || isDigit(prev) || (isUpper(prev) && isLower(next));
    }
    if (boundary && from >= 0) {
      if (i - from >= 2) out.add(low.slice(from, i));
      from = -1;
    }
    if (alnum && from < 0) from = i;
  }
}
