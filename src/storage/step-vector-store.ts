/**
 * The StepVectorStore port once for both backends (table from migration 019), on the synchronous
 * `sql` queries (storage/sql.ts SyncSql) the transcript store's connection answers. A vector is
 * int8 bytes (a BLOB on SQLite, BYTEA on PostgreSQL; both drivers hand back a Buffer).
 */
import type { StepVectorStore, UnembeddedStep } from '../ports/step-vectors.js';
import { type SyncSql, sql } from './sql.js';

/** The kinds of step worth a vector: what people and agents said, not tool traffic or reasoning. */
const KINDS = sql`('prompt', 'response', 'summary')`;
/** Ids per read: far below SQLite's bound-parameter limit. */
const CHUNK = 500;

const toInt8 = (b: Uint8Array): Int8Array => new Int8Array(b.buffer, b.byteOffset, b.byteLength);

export function createStepVectorStore(db: SyncSql): StepVectorStore {
  return {
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
