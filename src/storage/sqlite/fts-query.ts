/**
 * Compile a parsed query into FTS5 syntax. Every term is quoted, so no user input can produce a
 * syntax error; identifiers match their joined form or their parts as a phrase.
 */
import { identParts, joinedForm } from '../../core/idents.js';
import type { ParsedQuery, QueryTerm } from '../../core/query.js';

const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;

export function termExpr(t: QueryTerm): string {
  switch (t.kind) {
    case 'word':
    case 'phrase':
      return quote(t.text);
    case 'prefix':
      return `${quote(t.text)} *`;
    case 'ident': {
      const joined = joinedForm(t.text);
      const parts = identParts(t.text);
      const alts = new Set<string>();
      if (joined) alts.add(quote(joined));
      // The parts anywhere in the step: `handleWebhook.ts` finds `handle_webhook.ts` and the
      // camelCase parts indexed beside the text.
      if (parts.length > 1) alts.add(`(${parts.map(quote).join(' AND ')})`);
      else if (parts.length === 1) alts.add(quote(parts[0]));
      return alts.size > 1 ? `(${[...alts].join(' OR ')})` : ([...alts][0] ?? '');
    }
  }
}

function withExclusions(expr: string, q: ParsedQuery): string {
  const not = q.excluded.map(termExpr).filter(Boolean);
  return not.length ? `(${expr}) NOT (${not.join(' OR ')})` : expr;
}

/** Any term may match (ranked by bm25, which rewards matching more and rarer terms). */
export function anyTermsExpr(q: ParsedQuery): string | null {
  const parts = q.terms.map(termExpr).filter(Boolean);
  if (parts.length === 0) return null;
  return withExclusions(parts.join(' OR '), q);
}

/**
 * Rows that match one of the `rare` terms, ranked by every term: `(rare…) AND (all…)` matches the
 * same rows as the rare terms alone (cheap to rank), while bm25 still credits the common terms
 * those rows also contain.
 */
export function rareTermsExpr(q: ParsedQuery, rare: QueryTerm[]): string | null {
  const all = q.terms.map(termExpr).filter(Boolean);
  const some = rare.map(termExpr).filter(Boolean);
  if (some.length === 0) return null;
  if (some.length === all.length) return anyTermsExpr(q);
  return withExclusions(`(${some.join(' OR ')}) AND (${all.join(' OR ')})`, q);
}

/** Every term must match: the strict tier. */
export function allTermsExpr(q: ParsedQuery): string | null {
  const parts = q.terms.map(termExpr).filter(Boolean);
  if (parts.length === 0) return null;
  return withExclusions(parts.join(' AND '), q);
}
