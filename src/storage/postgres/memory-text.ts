/**
 * Full text for memories on PostgreSQL, tokenized by fts5-text.ts (SQLite FTS5's tokenizer and
 * stemmer) rather than by a text search config, so PostgreSQL matches exactly what SQLite matches.
 *
 * The vector holds SQLite's `memories_fts` columns one after another, weighted title A, labels B,
 * content C, identifiers D (the weights only tell the fields apart: ranking is FTS5's bm25 over the
 * columns, computed in JS by fts5-rank.ts from `fts5Columns`).
 *
 * Filter tags, as in SQLite's `tags` column: the vector also holds one positionless lexeme per
 * type, label, project directory (and each one above it) and status, spelt with `#` and `:` so no
 * word can produce one. Unranked matches AND the filter's tags into the tsquery, so the GIN index
 * intersects posting lists instead of handing every match of a common word to the filter; ranked
 * matches never do. Values are hashed so any path or label is one short lexeme; a collision only
 * widens a match the SQL filter rechecks.
 */
import { fnv1a } from '../../core/hash.js';
import { identTerms } from '../../core/idents.js';
import type { MemoryStatus } from '../../core/memory.js';
import { ancestors } from '../../core/paths.js';
import type { MemoryFilter } from '../../ports/memory-store.js';
import { quoteLexeme, TsvectorBuilder } from './fts5-text.js';

export { allOf, anyOf, rankQuery, termQuery, without } from './fts5-text.js';

/** SQLite's bm25 column weights for memories_fts (title, content, labels, idents, tags). */
export const BM25_WEIGHTS = [2.0, 1.0, 1.5, 0.5, 0.0] as const;

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

/** The text of the memories_fts columns a phrase can match: title, content, labels, idents. */
export function fts5Columns(m: Pick<IndexedMemoryText, 'title' | 'content' | 'labels'>): string[] {
  return [m.title, m.content, m.labels.join(' '), identTerms(`${m.title}\n${m.content}`)];
}

/**
 * Tokens in SQLite's `tags` column for a memory (sqlite/memory-sql.ts tagsOf: space, type, status,
 * one per label, one per project directory or "no project"; each a single token).
 */
export function fts5TagTokens(labels: number, project: string | null): number {
  return 3 + labels + (project ? ancestors(project).length : 1);
}

/**
 * A memory's tsvector literal — title (A), labels (B), content (C), identifier forms (D), tags —
 * and its FTS5 row size: the tokens SQLite's memories_fts row holds (bm25's row count figures).
 */
export function memoryIndex(m: IndexedMemoryText): { vector: string; tokens: number } {
  const [title, content, labels, idents] = fts5Columns(m) as [string, string, string, string];
  const v = new TsvectorBuilder();
  let tokens = v.text(title, 'A');
  tokens += v.gap(FIELD_GAP).text(labels, 'B');
  tokens += v.gap(FIELD_GAP).text(content, 'C');
  tokens += v.gap(FIELD_GAP).text(idents, 'D');
  for (const t of tagsOf(m)) v.tag(t);
  return { vector: v.toString(), tokens: tokens + fts5TagTokens(m.labels.length, m.project) };
}
