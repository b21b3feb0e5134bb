/**
 * Identifier handling for search. Prose tokenizers split `src/db.ts` into `src db ts` and lose the
 * whole; we index, beside the text, each identifier's joined form (`src_db_ts`) and its parts
 * (`parse transcript line` for `parseTranscriptLine`), so identifiers match whole and in parts.
 * The FTS tokenizer keeps `_` inside tokens, so snake_case names already match whole in the text.
 */

const IDENT_RE = /[A-Za-z0-9_$][A-Za-z0-9_$./:\\-]*[A-Za-z0-9_$]/g;
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

/**
 * The extra text indexed beside a step: each identifier's joined form plus its parts, deduped,
 * capped so a huge step cannot blow the index up.
 */
export function identTerms(text: string, max = 400): string {
  const out = new Set<string>();
  for (const m of text.matchAll(IDENT_RE)) {
    const tok = m[0].replace(/[.:/\\-]+$/, '');
    if (tok.length < 3 || !isIdentifier(tok)) continue;
    const joined = joinedForm(tok);
    if (joined.includes('_') && !/^_|_$/.test(joined)) out.add(joined);
    for (const p of identParts(tok)) out.add(p);
    if (out.size >= max) break;
  }
  return [...out].join(' ');
}
