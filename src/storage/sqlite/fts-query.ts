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

/** An identifier's exact form only (its joined form or, for snake_case, the name itself). */
export function exactIdentExpr(t: QueryTerm): string {
  return quote(joinedForm(t.text));
}

/** The excluded terms OR-ed, or null when there are none. */
export function excludedExpr(q: ParsedQuery): string | null {
  const not = q.excluded.map(termExpr).filter(Boolean);
  return not.length ? not.join(' OR ') : null;
}

function withExclusions(expr: string, q: ParsedQuery): string {
  const not = excludedExpr(q);
  return not ? `(${expr}) NOT (${not})` : expr;
}

/** Any term may match (ranked by bm25, which rewards matching more and rarer terms). */
export function anyTermsExpr(q: ParsedQuery): string | null {
  const parts = q.terms.map(termExpr).filter(Boolean);
  if (parts.length === 0) return null;
  return withExclusions(parts.join(' OR '), q);
}

/** Every term must match: the strict tier. */
export function allTermsExpr(q: ParsedQuery): string | null {
  const parts = q.terms.map(termExpr).filter(Boolean);
  if (parts.length === 0) return null;
  return withExclusions(parts.join(' AND '), q);
}
