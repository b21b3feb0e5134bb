/**
 * storage/sql.ts's transaction scope on both backends: inside `transaction`, every query of the
 * database (whichever store makes it) runs in that transaction; a transaction opened inside
 * another joins it as a savepoint, undone alone when it throws; the outer one throwing undoes all.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type { BackendKind } from '../../src/ports/stores.js';
import { parseDatabaseUrl } from '../../src/storage/postgres/open.js';
import { createPgSqlDb } from '../../src/storage/postgres/sql-pool.js';
import { type SqlDb, sql } from '../../src/storage/sql.js';
import { openDatabase } from '../../src/storage/sqlite/open.js';
import { createSqliteSqlDb } from '../../src/storage/sqlite/sql-db.js';
import { BACKENDS, openTestStores } from '../support/backends.js';

async function scratch(kind: BackendKind): Promise<SqlDb> {
  const s = openTestStores(kind);
  let db: SqlDb;
  if (kind === 'sqlite') {
    const file = openDatabase(s.stores.location);
    db = createSqliteSqlDb(file);
    after(() => file.close());
  } else {
    const { url, schema } = parseDatabaseUrl(s.url!);
    db = createPgSqlDb(url, { schema });
  }
  after(async () => {
    await db.close();
    s.cleanup();
  });
  await db.run(sql`CREATE TABLE scratch (k TEXT NOT NULL)`);
  return db;
}

const keys = async (db: SqlDb) =>
  (await db.all<{ k: string }>(sql`SELECT k FROM scratch ORDER BY k`)).map((r) => r.k);

for (const b of BACKENDS) {
  test(`a query made inside a transaction, not through its tx, runs in it (${b.name})`, {
    skip: b.skip,
  }, async () => {
    const db = await scratch(b.name);
    const seen = await db.transaction(async (tx) => {
      await tx.run(sql`INSERT INTO scratch (k) VALUES (${'a'})`);
      // Another store's call: on SQLite it would queue behind this transaction's mutex and wait
      // for itself; on PostgreSQL it would take another connection and not see 'a'.
      return keys(db);
    });
    assert.deepEqual(seen, ['a']);
  });

  test(`a nested transaction is a savepoint: undone alone, the outer kept; the outer undone whole (${b.name})`, {
    skip: b.skip,
  }, async () => {
    const db = await scratch(b.name);
    await db.transaction(async () => {
      await db.run(sql`INSERT INTO scratch (k) VALUES (${'outer'})`);
      await db.transaction(async () => {
        await db.run(sql`INSERT INTO scratch (k) VALUES (${'kept'})`);
      });
      await assert.rejects(
        db.transaction(async () => {
          await db.run(sql`INSERT INTO scratch (k) VALUES (${'undone'})`);
          throw new Error('inner fails');
        }),
        /inner fails/,
      );
    });
    assert.deepEqual(await keys(db), ['kept', 'outer']);
    await assert.rejects(
      db.transaction(async () => {
        await db.run(sql`INSERT INTO scratch (k) VALUES (${'later'})`);
        await db.transaction(async () => db.run(sql`INSERT INTO scratch (k) VALUES (${'later2'})`));
        throw new Error('outer fails');
      }),
      /outer fails/,
    );
    assert.deepEqual(await keys(db), ['kept', 'outer']);
  });

  test(`callers outside the transaction are not pulled into it (${b.name})`, {
    skip: b.skip,
  }, async () => {
    const db = await scratch(b.name);
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    const writer = db.transaction(async () => {
      await db.run(sql`INSERT INTO scratch (k) VALUES (${'tx'})`);
      await held;
      throw new Error('rolled back');
    });
    // Started outside the scope: on PostgreSQL it reads on another connection (and does not see
    // the uncommitted row); on SQLite it waits for the transaction to end.
    const outside = keys(db);
    if (b.name === 'postgres') assert.deepEqual(await outside, []);
    release();
    await assert.rejects(writer, /rolled back/);
    assert.deepEqual(await outside, []);
    assert.deepEqual(await keys(db), []);
  });
}
