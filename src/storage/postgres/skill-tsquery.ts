/**
 * Compile a parsed query into PostgreSQL tsquery expressions over the `hippo_kb` configuration of
 * migration 004 (skills, and the wiki through the same columns' recipe). The twin of
 * sqlite/fts-query.ts: the same term kinds mean the same thing.
 *
 * No user text ever reaches `to_tsquery`'s parser, so no input can raise a tsquery syntax error:
 * every term goes through `phraseto_tsquery` (which only tokenizes), and a prefix is made by
 * appending `:*` to that function's canonical output, which PostgreSQL reads back as written.
 * A term with no letters or digits becomes an empty tsquery, which matches nothing.
 */
import { identParts, joinedForm } from '../../core/idents.js';
import type { ParsedQuery, QueryTerm } from '../../core/query.js';

/** Bound parameters of the statement being built; `add` returns the placeholder. */
export class Params {
  readonly values: unknown[] = [];
  add(v: unknown): string {
    this.values.push(v);
    return `$${this.values.length}`;
  }
}

const phrase = (p: Params, text: string) =>
  `phraseto_tsquery('hippo_kb', hippo_kb_text(${p.add(text)}::text))`;

/** FTS5's `"words" *`: the phrase with its last word a prefix. */
const prefix = (p: Params, text: string) =>
  `(SELECT CASE WHEN numnode(q) = 0 THEN q ELSE (q::text || ':*')::tsquery END FROM ${phrase(p, text)} AS q)`;

/** One term as a tsquery expression (never null: an unusable term is the empty query). */
export function termTsquery(t: QueryTerm, p: Params): string {
  switch (t.kind) {
    case 'word':
    case 'phrase':
      return phrase(p, t.text);
    case 'prefix':
      return prefix(p, t.text);
    case 'ident': {
      // The joined form as a phrase, or its parts anywhere (as sqlite/fts-query.ts termExpr).
      const alts: string[] = [];
      const joined = joinedForm(t.text);
      const parts = identParts(t.text);
      if (joined) alts.push(phrase(p, joined));
      if (parts.length > 1)
        alts.push(`plainto_tsquery('hippo_kb', hippo_kb_text(${p.add(parts.join(' '))}::text))`);
      else if (parts.length === 1) alts.push(phrase(p, parts[0]));
      return alts.length ? `(${alts.join(' || ')})` : `''::tsquery`;
    }
  }
}

/** Any term (OR), or null when the query has no terms. */
export function anyTermsTsquery(q: ParsedQuery, p: Params): string | null {
  if (q.terms.length === 0) return null;
  return `(${q.terms.map((t) => termTsquery(t, p)).join(' || ')})`;
}

/** The excluded terms OR-ed, or null when there are none. */
export function excludedTsquery(q: ParsedQuery, p: Params): string | null {
  if (q.excluded.length === 0) return null;
  return `(${q.excluded.map((t) => termTsquery(t, p)).join(' || ')})`;
}
