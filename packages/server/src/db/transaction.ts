// The one transaction helper. A verb that changes data calls `transaction(db, fn)`: given the
// pool-backed handle it opens a transaction; given a transaction it joins it (no savepoint), so
// a verb composes into a caller's transaction without knowing it is in one.
import { PgTransaction } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import type { DbOrTx, Tx } from './client.ts';

/** Whether `db` is already a transaction. */
export function inTransaction(db: DbOrTx): db is Tx {
  return db instanceof PgTransaction;
}

/**
 * The pool behind a pool-backed handle. Statements that share a call with other requests (group
 * commit, batched reads) cannot run inside one caller's transaction: asking is a programming error.
 */
export function poolFor(db: DbOrTx, what: string): pg.Pool {
  if (inTransaction(db)) throw new Error(`${what} is batched across requests and cannot run inside a transaction`);
  return db.$client;
}

export function transaction<T>(db: DbOrTx, fn: (tx: Tx) => Promise<T>): Promise<T> {
  if (inTransaction(db)) return fn(db);
  return db.transaction(fn);
}

/**
 * Runs `fn` in a savepoint of the transaction `tx`: when it throws, what it wrote is undone and
 * the outer transaction stays usable (a refused step that must not abort the caller's work).
 */
export function savepoint<T>(tx: Tx, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return tx.transaction(fn);
}
