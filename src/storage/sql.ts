/**
 * The one database access layer the shared stores are written against (issue #13): an async
 * database with a tagged-template query (`sql\`… ${value} …\``) that each dialect compiles to its
 * own placeholders (`?` for SQLite, `$1…` for PostgreSQL), and one transaction call. A store over
 * this runs unchanged on both backends; dialect code lives only in the two small adapters
 * (`sqlite/sql-db.ts`, `postgres/sql-pool.ts`) and in `dialect` checks where the engines really
 * differ. Kept small on purpose instead of Kysely: the same shape (Kysely's `sql` tag and
 * dialect split) without 280 modules to load on a hook's or CLI's path.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** A piece of SQL with its parameters kept apart from the text. */
export interface Sql {
  readonly strings: readonly string[];
  readonly values: readonly unknown[];
}

const RAW = Symbol('raw');
interface Raw {
  readonly [RAW]: string;
}
const isSql = (v: unknown): v is Sql =>
  typeof v === 'object' && v !== null && 'strings' in v && 'values' in v;
const isRaw = (v: unknown): v is Raw => typeof v === 'object' && v !== null && RAW in v;

/** Build a query: interpolated values become parameters, nested `sql` fragments are spliced in. */
export function sql(strings: TemplateStringsArray | readonly string[], ...values: unknown[]): Sql {
  return { strings: [...strings], values };
}

/** Fragments joined by `separator` (e.g. ' OR '); an empty list gives an empty fragment. */
sql.join = (parts: readonly Sql[], separator: string): Sql =>
  parts.length === 0 ? sql`` : sql(['', ...parts.slice(1).map(() => separator), ''], ...parts);

/** Trusted SQL text (an identifier or keyword chosen by the code, never user input). */
sql.raw = (text: string): Raw => ({ [RAW]: text });

/** Compile to text and parameters; `placeholder(n)` writes the n-th (1-based) parameter. */
export function compile(q: Sql, placeholder: (n: number) => string): { text: string; params: unknown[] } {
  const params: unknown[] = [];
  const walk = (s: Sql): string => {
    let text = s.strings[0];
    s.values.forEach((v, i) => {
      if (isSql(v)) text += walk(v);
      else if (isRaw(v)) text += v[RAW];
      else {
        params.push(v);
        text += placeholder(params.length);
      }
      text += s.strings[i + 1];
    });
    return text;
  };
  return { text: walk(q), params };
}

/** Queries on one connection (inside a transaction, or any connection of the database). */
export interface SqlQueries {
  /** Every row the query returns. */
  all<T>(q: Sql): Promise<T[]>;
  /** The first row, or undefined. */
  one<T>(q: Sql): Promise<T | undefined>;
  /** Run a statement; the number of rows it touched. */
  run(q: Sql): Promise<number>;
}

/**
 * Synchronous queries in one dialect, for a shared store whose port is still synchronous (the
 * knowledge catalog, saved threads): the same `sql` queries, answered at once, on the connection
 * the synchronous stores share — so a write joins the transcript store's open transaction. Errors
 * are mapped by the adapter.
 */
export interface SyncSql {
  readonly dialect: 'sqlite' | 'postgres';
  all<T>(q: Sql): T[];
  one<T>(q: Sql): T | undefined;
  /** Run a statement; the number of rows it touched. */
  run(q: Sql): number;
  /**
   * Run `fn` in one write transaction, all of it or nothing (a savepoint inside another): SQLite's
   * IMMEDIATE, the synchronous PostgreSQL client's write transaction (its store-wide lock).
   */
  transaction<T>(fn: () => T): T;
}

export interface SqlDb extends SqlQueries {
  /** Where engines really differ (row locks, full text): a capability, read by the store. */
  readonly dialect: 'sqlite' | 'postgres';
  /**
   * Run `fn` in one write transaction: committed when it resolves, rolled back when it throws.
   * SQLite: BEGIN IMMEDIATE behind a mutex (one connection, writers queue). PostgreSQL: one
   * pooled connection for the transaction; other connections go on serving. Called inside
   * another transaction of this database (any store's), it joins it as a savepoint, and every
   * query of this database made inside `fn` runs in it: that is how one transaction spans stores.
   */
  transaction<T>(fn: (tx: SqlQueries) => Promise<T>): Promise<T>;
  /**
   * Run `fn` as if inside `tx`, a transaction opened on this database by other means (the
   * synchronous PostgreSQL client's, while stores still use it): this database's queries and
   * transactions inside `fn` join `tx`. Inside, await only store calls (they settle without
   * yielding to I/O), so no other caller's statement runs in `tx`.
   */
  within<T>(tx: SqlQueries, fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** The open transaction the running code is inside, and how deeply nested (for savepoint names). */
interface Open {
  tx: SqlQueries;
  depth: number;
}

/**
 * An SqlDb from an adapter's parts: `direct` (queries outside any transaction) and `begin` (a
 * top-level transaction). The transaction scope is an AsyncLocalStorage, not a `tx` argument on
 * every store method: a store's methods stay the port's, a store never needs to know whether a
 * caller opened a transaction around it, and an import spans stores by opening one and calling
 * them as usual. On SQLite this also keeps a store from queueing on the mutex its own
 * transaction holds (it would wait for itself).
 */
export function scopedSqlDb(parts: {
  dialect: SqlDb['dialect'];
  direct: SqlQueries;
  begin<T>(fn: (tx: SqlQueries) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}): SqlDb {
  const scope = new AsyncLocalStorage<Open>();
  const on = (): SqlQueries => scope.getStore()?.tx ?? parts.direct;
  return {
    dialect: parts.dialect,
    all: (q) => on().all(q),
    one: (q) => on().one(q),
    run: (q) => on().run(q),
    transaction(fn) {
      const open = scope.getStore();
      if (!open) return parts.begin((tx) => scope.run({ tx, depth: 0 }, () => fn(tx)));
      const depth = open.depth + 1;
      return scope.run({ tx: open.tx, depth }, () => savepoint(open.tx, `tx_sp${depth}`, () => fn(open.tx)));
    },
    within: (tx, fn) => scope.run({ tx, depth: 0 }, fn),
    close: parts.close,
  };
}

/** `fn` inside a savepoint of `tx`: undone alone when it throws, kept with `tx` when it resolves. */
async function savepoint<T>(tx: SqlQueries, name: string, fn: () => Promise<T>): Promise<T> {
  await tx.run(sql`SAVEPOINT ${sql.raw(name)}`);
  try {
    const out = await fn();
    await tx.run(sql`RELEASE SAVEPOINT ${sql.raw(name)}`);
    return out;
  } catch (e) {
    await tx.run(sql`ROLLBACK TO SAVEPOINT ${sql.raw(name)}`).catch(() => {
      // the enclosing transaction is failing anyway
    });
    throw e;
  }
}

/**
 * One lane: each `run` waits for the previous one to settle. SQLite has one connection, so a
 * transaction must own it from BEGIN to COMMIT (Kysely's ConnectionMutex, the same idea).
 */
export function createMutex(): <T>(fn: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return (fn) => {
    const next = tail.then(fn, fn);
    tail = next.catch(() => {});
    return next;
  };
}
