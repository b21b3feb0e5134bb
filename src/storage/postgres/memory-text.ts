/**
 * Full text for memories on PostgreSQL, tokenized by fts5-text.ts (SQLite FTS5's tokenizer and
 * stemmer) rather than by a text search config, so PostgreSQL matches exactly what SQLite matches.
 *
 * Weights stand in for FTS5's column weights (title 2.0, labels 1.5, content 1.0, identifiers 0.5):
 * title A, labels B, content C, identifiers D, scored with RANK_WEIGHTS by ts_rank_cd.
 *
 * Filter tags, as in SQLite's `tags` column: the vector also holds one positionless lexeme per
 * type, label, project directory (and each one above it) and status, spelt with `#` and `:` so no
 * word can produce one. Unranked matches AND the filter's tags into the tsquery, so the GIN index
 * intersects posting lists instead of handing every match of a common word to the filter; ranked
 * matches never do (ts_rank_cd only weighs the query's own lexemes anyway). Values are hashed so
 * any path or label is one short lexeme; a collision only widens a match the SQL filter rechecks.
 */
import { fnv1a } from '../../core/hash.js';
import { identTerms } from '../../core/idents.js';
import type { MemoryStatus } from '../../core/memory.js';
import { ancestors } from '../../core/paths.js';
import type { MemoryFilter } from '../../ports/memory-store.js';
import { quoteLexeme, TsvectorBuilder } from './fts5-text.js';

export { allOf, anyOf, rankQuery, termQuery, without } from './fts5-text.js';

/** ts_rank_cd weights for {D, C, B, A}: FTS5's bm25 column weights halved. */
export const RANK_WEIGHTS = '{0.25,0.5,0.75,1.0}';

/** Positions skipped between fields, so a phrase never matches across two of them. */
const FIELD_GAP = 8;

export interface IndexedMemoryText {
  title: string;
  content: string;
  labels: readonly string[];
  unit_type: string;
  project: string | null;
  status: MemoryStatus;
}

const tag = {
  type: (t: string) => `#t:${t}`,
  label: (l: string) => `#l:${fnv1a(l).toString(36)}`,
  project: (p: string) => `#p:${fnv1a(p).toString(36)}`,
  status: (s: string) => `#x:${s}`,
};

function tagsOf(m: IndexedMemoryText): string[] {
  const out = [tag.type(m.unit_type), tag.status(m.status), ...m.labels.map(tag.label)];
  if (m.project) for (const p of ancestors(m.project)) out.push(tag.project(p));
  return out;
}

/**
 * The filter as a tsquery of tags to AND into an unranked match, or '' (SQLite's tagExpr). Active
 * memories are nearly all of them, so a filter that includes them gets no status tag; spaces are
 * left to the b-tree indexes.
 */
export function filterTags(f: MemoryFilter): string {
  const out: string[] = [];
  const any = (tags: string[]) =>
    out.push(tags.length === 1 ? quoteLexeme(tags[0]!) : `(${tags.map(quoteLexeme).join(' | ')})`);
  if (f.types?.length) any(f.types.map(tag.type));
  for (const l of f.labels ?? []) any([tag.label(l)]);
  if (f.project) any([tag.project(f.project)]);
  const statuses: MemoryStatus[] = f.asOf
    ? ['active', 'superseded']
    : f.statuses?.length
      ? f.statuses
      : ['active'];
  if (!statuses.includes('active')) any(statuses.map(tag.status));
  return out.join(' & ');
}

/** The tsvector literal of a memory: title (A), labels (B), content (C), identifier forms (D), tags. */
export function memoryVector(m: IndexedMemoryText): string {
  const v = new TsvectorBuilder();
  v.text(m.title, 'A');
  v.gap(FIELD_GAP).text(m.labels.join(' '), 'B');
  v.gap(FIELD_GAP).text(m.content, 'C');
  v.gap(FIELD_GAP).text(identTerms(`${m.title}\n${m.content}`), 'D');
  for (const t of tagsOf(m)) v.tag(t);
  return v.toString();
}
