/** SQLite implementation of the MemoryStore port (schema: migrations/002-memories.ts). */
import { identTerms } from '../../core/idents.js';
import type { Memory } from '../../core/memory.js';
import { bandKeys, fingerprint } from '../../core/near-duplicate.js';
import type { MemoryStore, MemoryWriter } from '../../ports/memory-store.js';
import { type SpaceSizes, searchCandidates } from './memory-search.js';
import { COLS, filterSql, type MemoryRow, type Statement, tagsOf, toMemory, toRow } from './memory-sql.js';
import { type Db, sqliteGuard } from './open.js';

/** Near-duplicates are only looked for among memories of the same space and project. */
const scopeKey = (space: string, project: string | null) => `${space}\u0000${project ?? ''}`;

export function createSqliteMemoryStore(db: Db): MemoryStore {
  const path = db.name;
  const cache = new Map<string, Statement>();
  const spaceSizes: SpaceSizes = new Map();
  // Prepared on first use: an engine that never touches memories pays nothing.
  function st(sql: string): Statement {
    let s = cache.get(sql);
    if (!s) {
      s = db.prepare<unknown[]>(sql);
      if (cache.size > 200) cache.clear();
      cache.set(sql, s);
    }
    return s;
  }
  const guard = sqliteGuard(path);

  const row = (sql: string, ...args: unknown[]) => st(sql).get(...args) as MemoryRow | undefined;
  const rows = (sql: string, ...args: unknown[]) => st(sql).all(...args) as MemoryRow[];
  const get = (id: string) => {
    const r = row('SELECT * FROM memories WHERE id = ?', id);
    return r ? toMemory(r) : undefined;
  };

  function index(mid: number, m: Memory): void {
    st(
      'INSERT INTO memories_fts (rowid, title, content, labels, idents, tags) VALUES (?, ?, ?, ?, ?, ?)',
    ).run(mid, m.title, m.content, m.labels.join(' '), identTerms(`${m.title}\n${m.content}`), tagsOf(m));
    st('DELETE FROM memory_labels WHERE mid = ?').run(mid);
    for (const l of m.labels)
      st('INSERT OR IGNORE INTO memory_labels (label, mid) VALUES (?, ?)').run(l, mid);
    st('DELETE FROM memory_bands WHERE mid = ?').run(mid);
    if (m.status === 'active')
      for (const b of bandKeys(fingerprint(m.content), scopeKey(m.space, m.project)))
        st('INSERT OR IGNORE INTO memory_bands (band, mid) VALUES (?, ?)').run(b, mid);
  }

  const writer: MemoryWriter = {
    get,
    insert(m) {
      const { lastInsertRowid } = st(
        `INSERT INTO memories (${COLS.join(', ')}) VALUES (${COLS.map((c) => `@${c}`).join(', ')})`,
      ).run(toRow(m));
      index(Number(lastInsertRowid), m);
    },
    update(m) {
      const r = row('SELECT mid FROM memories WHERE id = ?', m.id);
      if (!r) throw new Error(`memory ${m.id} must exist before it is updated`);
      const set = COLS.filter((c) => c !== 'id').map((c) => `${c} = @${c}`);
      st(`UPDATE memories SET ${set.join(', ')} WHERE id = @id`).run(toRow(m));
      st('DELETE FROM memories_fts WHERE rowid = ?').run(r.mid);
      index(r.mid, m);
    },
    remove(id) {
      const r = row('SELECT mid FROM memories WHERE id = ?', id);
      if (!r) return;
      st('DELETE FROM memories_fts WHERE rowid = ?').run(r.mid);
      st('DELETE FROM memory_labels WHERE mid = ?').run(r.mid);
      st('DELETE FROM memory_bands WHERE mid = ?').run(r.mid);
      st('DELETE FROM memories WHERE mid = ?').run(r.mid);
    },
    withHash(space, project, hash) {
      // Pinned to the dedup index: without statistics SQLite may prefer (space, status) and scan.
      return rows(
        `SELECT * FROM memories INDEXED BY memories_dedup
         WHERE space = ? AND content_hash = ? AND status = 'active' AND project IS ?`,
        space,
        hash,
        project,
      ).map(toMemory);
    },
    similar(space, project, content, limit) {
      const bands = bandKeys(fingerprint(content), scopeKey(space, project));
      if (bands.length === 0) return [];
      // Primary-key probes only; counted here so no plan can trade them for an index scan.
      const shared = new Map<number, number>();
      const hits = st(`SELECT mid FROM memory_bands WHERE band IN (${bands.map(() => '?').join(',')})`).all(
        ...bands,
      ) as { mid: number }[];
      for (const { mid } of hits) shared.set(mid, (shared.get(mid) ?? 0) + 1);
      const ids = [...shared]
        .sort((a, b) => b[1] - a[1] || b[0] - a[0])
        .slice(0, limit)
        .map(([mid]) => mid);
      if (ids.length === 0) return [];
      return rows(`SELECT * FROM memories WHERE mid IN (${ids.map(() => '?').join(',')})`, ...ids)
        .filter((r) => r.space === space && r.status === 'active' && r.project === project)
        .sort((a, b) => b.mid - a.mid)
        .map(toMemory);
    },
    predecessors(id) {
      return rows('SELECT * FROM memories WHERE superseded_by = ? ORDER BY valid_from', id).map(toMemory);
    },
  };

  return {
    write(fn) {
      return guard(() => db.transaction(() => fn(writer)).immediate());
    },
    get: (id) => guard(() => get(id)),
    getMany(ids) {
      return guard(() => {
        if (ids.length === 0) return [];
        const found = new Map(
          rows(`SELECT * FROM memories WHERE id IN (${ids.map(() => '?').join(',')})`, ...ids).map((r) => [
            r.id,
            toMemory(r),
          ]),
        );
        return ids.flatMap((id) => found.get(id) ?? []);
      });
    },
    idsWithPrefix(prefix, limit) {
      return guard(() =>
        (
          st('SELECT id FROM memories WHERE id >= ? AND id < ? ORDER BY id LIMIT ?').all(
            prefix,
            `${prefix}\uffff`,
            limit,
          ) as { id: string }[]
        ).map((r) => r.id),
      );
    },
    supersedes(id) {
      return guard(() =>
        (
          st('SELECT id FROM memories WHERE superseded_by = ? ORDER BY valid_from').all(id) as {
            id: string;
          }[]
        ).map((r) => r.id),
      );
    },
    candidates: (query, filter, pool) => guard(() => searchCandidates(st, query, filter, pool, spaceSizes)),
    list(filter, limit, offset) {
      return guard(() => {
        const { where, params } = filterSql(filter);
        return rows(
          `SELECT m.* FROM memories m WHERE ${where} ORDER BY m.updated_at DESC, m.id DESC LIMIT ? OFFSET ?`,
          ...params,
          limit,
          offset,
        ).map(toMemory);
      });
    },
  };
}
