/**
 * The StepVectorStore port once for both backends (table from migration 019), on the synchronous
 * `sql` queries (storage/sql.ts SyncSql) the transcript store's connection answers. A vector is
 * int8 bytes (a BLOB on SQLite, BYTEA on PostgreSQL; both drivers hand back a Buffer).
 */
import { nearestRows, packVectors, type VectorMatrix } from '../core/vectors.js';
import type { StepVectorStore, UnembeddedStep } from '../ports/step-vectors.js';
import { type SyncSql, sql } from './sql.js';

/** The kinds of step worth a vector: what people and agents said, not tool traffic or reasoning. */
const KINDS = sql`('prompt', 'response', 'summary')`;
/** Ids per read: far below SQLite's bound-parameter limit. */
const CHUNK = 500;
/**
 * How long a process trusts the vectors it keeps in memory for `nearest`: other processes' writes
 * (`tapedeck embed` elsewhere) show up at most this late; this store's own writes at once.
 */
const KEPT_MS = 60_000;

const toInt8 = (b: Uint8Array): Int8Array => new Int8Array(b.buffer, b.byteOffset, b.byteLength);

export function createStepVectorStore(db: SyncSql): StepVectorStore {
  let kept: { model: string; at: number; matrix: VectorMatrix } | undefined;
  const matrixOf = (model: string): VectorMatrix => {
    if (kept?.model === model && Date.now() - kept.at < KEPT_MS) return kept.matrix;
    const rows = db.all<{ id: number | string; v: Uint8Array }>(
      sql`SELECT step_id AS id, v FROM step_vectors WHERE model = ${model}`,
    );
    const matrix = packVectors(rows.map((r) => ({ id: Number(r.id), v: toInt8(r.v) })));
    kept = { model, at: Date.now(), matrix };
    return matrix;
  };
  return {
    nearest: (query, model, limit) => nearestRows(matrixOf(model), query, limit),
    vectors(rowids, model) {
      const out = new Map<number, Int8Array>();
      for (let i = 0; i < rowids.length; i += CHUNK) {
        const ids = sql.join(
          rowids.slice(i, i + CHUNK).map((id) => sql`${id}`),
          ', ',
        );
        for (const r of db.all<{ id: number | string; v: Uint8Array }>(
          sql`SELECT step_id AS id, v FROM step_vectors WHERE model = ${model} AND step_id IN (${ids})`,
        ))
          out.set(Number(r.id), toInt8(r.v));
      }
      return out;
    },
    any: (model) => db.one(sql`SELECT 1 AS x FROM step_vectors WHERE model = ${model} LIMIT 1`) !== undefined,
    count(model) {
      const r = db.one<{ embedded: number | string; total: number | string }>(sql`
        SELECT (SELECT count(*) FROM step_vectors WHERE model = ${model}) AS embedded,
               (SELECT count(*) FROM steps WHERE kind IN ${KINDS}) AS total`);
      return { embedded: Number(r?.embedded ?? 0), total: Number(r?.total ?? 0) };
    },
    unembedded(model, limit): UnembeddedStep[] {
      return db
        .all<{ id: number | string; text: string }>(sql`
          SELECT s.id, s.text FROM steps s
          WHERE s.kind IN ${KINDS}
            AND NOT EXISTS (SELECT 1 FROM step_vectors v WHERE v.step_id = s.id AND v.model = ${model})
          ORDER BY s.id DESC LIMIT ${limit}`)
        .map((r) => ({ rowid: Number(r.id), text: r.text }));
    },
    put(model, rows) {
      kept = undefined;
      return db.transaction(() => {
        let n = 0;
        for (const r of rows)
          n += db.run(sql`
            INSERT INTO step_vectors (step_id, model, v)
            SELECT id, ${model}, ${Buffer.from(r.vector.buffer, r.vector.byteOffset, r.vector.byteLength)}
            FROM steps WHERE id = ${r.rowid}
            ON CONFLICT (step_id) DO UPDATE SET model = excluded.model, v = excluded.v`);
        return n;
      });
    },
  };
}
