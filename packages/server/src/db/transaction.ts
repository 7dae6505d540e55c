// The one transaction helper. A verb that changes data calls `transaction(db, fn)`: given the
// pool-backed handle it opens a transaction; given a transaction it joins it (no savepoint), so
// a verb composes into a caller's transaction without knowing it is in one.
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { DbOrTx, Tx } from './client.ts';

/** Whether `db` is already a transaction. */
export function inTransaction(db: DbOrTx): db is Tx {
  return db instanceof PgTransaction;
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
