/**
 * PostgreSQL implementation of the MemoryStore port (schema: migrations/002-memories.ts), the twin
 * of storage/sqlite/memory-store.ts. Each call is a round trip, so each writer method is one
 * statement (the row, its tsvector, labels and band keys together, through data-modifying CTEs),
 * and a row written in a write transaction is kept so reading it back costs nothing. Writes run
 * in `pg.transaction(…, 'write')`, which takes the store-wide lock first: dedup checks see every
 * committed add, as under SQLite's IMMEDIATE transactions.
 */
import type { Memory } from '../../core/memory.js';
import { bandKeys, fingerprint } from '../../core/near-duplicate.js';
import type { MemoryStore, MemoryWriter } from '../../ports/memory-store.js';
import { type CommonTerms, searchCandidates } from './memory-search.js';
import {
  COLS,
  filterSql,
  type MemoryRow,
  Params,
  pgGuard,
  SELECT_COLS,
  toMemory,
  toRow,
} from './memory-sql.js';
import { memoryIndex } from './memory-text.js';
import type { PgStore } from './open.js';

/** Near-duplicates are only looked for among memories of the same space and project. */
const scopeKey = (space: string, project: string | null) => `${space}\u0000${project ?? ''}`;

const bandsOf = (m: Memory) =>
  m.status === 'active' ? bandKeys(fingerprint(m.content), scopeKey(m.space, m.project)) : [];

const RETURNING = `RETURNING ${SELECT_COLS.replace(/m\./g, '')}`;

/** FTS5's totals take each indexed row, as SQLite's memories_fts does (migration 002). */
const totalsSql = (tokens: string) =>
  `t AS (UPDATE memory_fts_totals SET rows = rows + 1, tokens = tokens + ${tokens}::bigint
         WHERE EXISTS (SELECT FROM m))`;

/**
 * One statement: the row (with its tsvector, FTS5 row size and exactness), then its labels and band keys brought in line, and
 * the full-text totals.
 */
function insertSql(m: Memory): { sql: string; params: unknown[] } {
  const p = new Params();
  const row = toRow(m);
  const values = COLS.map((c) => p.add(row[c]));
  const index = memoryIndex(m);
  const fts = p.add(index.vector);
  const tokens = p.add(index.tokens);
  const exact = p.add(index.exact);
  const labels = p.add(m.labels);
  const bands = p.add(bandsOf(m));
  return {
    sql: `WITH m AS (
            INSERT INTO memories (${COLS.join(', ')}, fts, fts_tokens, fts_exact)
            VALUES (${values.join(', ')}, ${fts}::tsvector, ${tokens}::int, ${exact}::boolean)
            ${RETURNING}
          ), ${totalsSql(tokens)}, l AS (
            INSERT INTO memory_labels (label, mid)
            SELECT DISTINCT x, m.mid FROM m, unnest(${labels}::text[]) x ON CONFLICT DO NOTHING
          ), b AS (
            INSERT INTO memory_bands (band, mid)
            SELECT DISTINCT x, m.mid FROM m, unnest(${bands}::bigint[]) x ON CONFLICT DO NOTHING
          )
          SELECT * FROM m`,
    params: p.values,
  };
}

function updateSql(m: Memory): { sql: string; params: unknown[] } {
  const p = new Params();
  const row = toRow(m);
  const id = p.add(m.id);
  const set = COLS.filter((c) => c !== 'id').map((c) => `${c} = ${p.add(row[c])}`);
  const index = memoryIndex(m);
  const fts = p.add(index.vector);
  const tokens = p.add(index.tokens);
  const exact = p.add(index.exact);
  const labels = p.add(m.labels);
  const bands = p.add(bandsOf(m));
  // Only rows leaving the set are deleted and only new ones inserted, so the CTEs never meet.
  return {
    sql: `WITH m AS (
            UPDATE memories SET ${set.join(', ')}, fts = ${fts}::tsvector, fts_tokens = ${tokens}::int,
                fts_exact = ${exact}::boolean WHERE id = ${id}
            ${RETURNING}
          ), ${totalsSql(tokens)}, dl AS (
            DELETE FROM memory_labels l USING m
            WHERE l.mid = m.mid AND NOT (l.label = ANY(${labels}::text[]))
          ), il AS (
            INSERT INTO memory_labels (label, mid)
            SELECT DISTINCT x, m.mid FROM m, unnest(${labels}::text[]) x ON CONFLICT DO NOTHING
          ), db AS (
            DELETE FROM memory_bands b USING m
            WHERE b.mid = m.mid AND NOT (b.band = ANY(${bands}::bigint[]))
          ), ib AS (
            INSERT INTO memory_bands (band, mid)
            SELECT DISTINCT x, m.mid FROM m, unnest(${bands}::bigint[]) x ON CONFLICT DO NOTHING
          )
          SELECT * FROM m`,
    params: p.values,
  };
}

export function createPgMemoryStore(db: PgStore): MemoryStore {
  const { pg } = db;
  const guard = pgGuard(pg.label);
  const common: CommonTerms = new Map();
  const rows = (sql: string, params: unknown[]) => pg.query<MemoryRow>(sql, params).map(toMemory);
  const get = (id: string) => rows(`SELECT ${SELECT_COLS} FROM memories m WHERE m.id = $1`, [id])[0];

  /** Rows written in the current write transaction, by id (the lock keeps them current). */
  let written: Map<string, Memory> | null = null;

  const writer: MemoryWriter = {
    get: (id) => written?.get(id) ?? get(id),
    insert(m) {
      const { sql, params } = insertSql(m);
      const stored = rows(sql, params)[0]!;
      written?.set(stored.id, stored);
    },
    update(m) {
      const { sql, params } = updateSql(m);
      const stored = rows(sql, params)[0];
      if (!stored) throw new Error(`memory ${m.id} must exist before it is updated`);
      written?.set(stored.id, stored);
    },
    remove(id) {
      written?.delete(id);
      // Labels and band keys go with it (ON DELETE CASCADE); the full-text totals stay (as FTS5's).
      pg.run('DELETE FROM memories WHERE id = $1', [id]);
    },
    withHash(space, project, hash) {
      return rows(
        `SELECT ${SELECT_COLS} FROM memories m
         WHERE m.space = $1 AND m.content_hash = $2 AND m.status = 'active' AND m.project IS NOT DISTINCT FROM $3`,
        [space, hash, project],
      );
    },
    similar(space, project, content, limit) {
      const bands = bandKeys(fingerprint(content), scopeKey(space, project));
      if (bands.length === 0) return [];
      // The memories sharing the most band keys (ties: the newest), then only those in scope.
      return rows(
        `SELECT ${SELECT_COLS} FROM memories m
         WHERE m.mid IN (SELECT mid FROM memory_bands WHERE band = ANY($1::bigint[])
                         GROUP BY mid ORDER BY count(*) DESC, mid DESC LIMIT $2)
           AND m.space = $3 AND m.status = 'active' AND m.project IS NOT DISTINCT FROM $4
         ORDER BY m.mid DESC`,
        [bands, limit, space, project],
      );
    },
    predecessors(id) {
      return rows(
        `SELECT ${SELECT_COLS} FROM memories m WHERE m.superseded_by = $1 ORDER BY m.valid_from, m.id`,
        [id],
      );
    },
  };

  return {
    write(fn) {
      return guard(() =>
        pg.transaction(() => {
          // A nested write (a savepoint) shares the outer cache; one that fails may have been
          // rolled back, so the outer one reads from the database again.
          const outer = written;
          written = outer ?? new Map();
          try {
            return fn(writer);
          } catch (e) {
            outer?.clear();
            throw e;
          } finally {
            written = outer;
          }
        }, 'write'),
      );
    },
    get: (id) => guard(() => get(id)),
    getMany(ids) {
      return guard(() => {
        if (ids.length === 0) return [];
        const found = new Map(
          rows(`SELECT ${SELECT_COLS} FROM memories m WHERE m.id = ANY($1::text[])`, [ids]).map((m) => [
            m.id,
            m,
          ]),
        );
        return ids.flatMap((id) => found.get(id) ?? []);
      });
    },
    idsWithPrefix(prefix, limit) {
      return guard(() =>
        pg
          .query<{ id: string }>('SELECT id FROM memories WHERE id >= $1 AND id < $2 ORDER BY id LIMIT $3', [
            prefix,
            `${prefix}\uffff`,
            limit,
          ])
          .map((r) => r.id),
      );
    },
    supersedes(id) {
      return guard(() =>
        pg
          .query<{ id: string }>('SELECT id FROM memories WHERE superseded_by = $1 ORDER BY valid_from, id', [
            id,
          ])
          .map((r) => r.id),
      );
    },
    candidates: (query, filter, pool) => guard(() => searchCandidates(pg, query, filter, pool, common)),
    list(filter, limit, offset) {
      return guard(() => {
        const p = new Params();
        const where = filterSql(filter, p);
        return rows(
          `SELECT ${SELECT_COLS} FROM memories m WHERE ${where}
           ORDER BY m.updated_at DESC, m.id DESC LIMIT ${p.add(limit)} OFFSET ${p.add(offset)}`,
          p.values,
        );
      });
    },
  };
}
