// Statements on Idempotency-Key rows. One INSERT ... ON CONFLICT decides the race between any
// number of processes for a key (all state is in PostgreSQL).
import { and, eq, lte, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../client.ts';
import { idempotencyKeys as k } from '../schema/index.ts';

export type IdempotencyRow = typeof k.$inferSelect;

/** A won claim's identity: only the row it wrote may be completed or released. */
export interface ClaimedKey {
  accountId: number;
  key: string;
  requestHash: string;
  claimedAt: Date;
}

/**
 * Claims a key for a request: inserts it in flight, or takes over a row that counts as absent
 * (expired at `now`) or abandoned (in flight since `leaseBefore` with the same request).
 * Whether this call won the claim.
 */
export async function claimKey(db: DbOrTx, c: ClaimedKey, expiresAt: Date, leaseBefore: Date): Promise<boolean> {
  const now = c.claimedAt;
  const won = await db
    .insert(k)
    .values({ accountId: c.accountId, key: c.key, requestHash: c.requestHash, state: 'in_flight', createdAt: now, expiresAt })
    .onConflictDoUpdate({
      target: [k.accountId, k.key],
      set: { requestHash: c.requestHash, state: 'in_flight', statusCode: null, responseBody: null, responseHeaders: null, createdAt: now, expiresAt },
      setWhere: sql`${k.expiresAt} <= ${now} or (${k.state} = 'in_flight' and ${k.createdAt} <= ${leaseBefore} and ${k.requestHash} = ${c.requestHash})`,
    })
    .returning({ key: k.key });
  return won.length > 0;
}

export async function findKey(db: DbOrTx, accountId: number, key: string): Promise<IdempotencyRow | null> {
  const [row] = await db.select().from(k).where(and(eq(k.accountId, accountId), eq(k.key, key)));
  return row ?? null;
}

/** The row this claim wrote, if it is still in flight (not taken over meanwhile). */
const mine = (c: ClaimedKey): SQL =>
  and(eq(k.accountId, c.accountId), eq(k.key, c.key), eq(k.state, 'in_flight'), eq(k.requestHash, c.requestHash), eq(k.createdAt, c.claimedAt))!;

export async function releaseKey(db: DbOrTx, c: ClaimedKey): Promise<void> {
  await db.delete(k).where(mine(c));
}

export async function completeKey(db: DbOrTx, c: ClaimedKey, answer: { status: number; body: string; headers: Record<string, string> }): Promise<void> {
  await db.update(k).set({ state: 'completed', statusCode: answer.status, responseBody: answer.body, responseHeaders: answer.headers }).where(mine(c));
}

/** Deletes keys expired at `now`; how many. */
export async function deleteExpiredKeys(db: DbOrTx, now: Date): Promise<number> {
  const gone = await db.delete(k).where(lte(k.expiresAt, now)).returning({ key: k.key });
  return gone.length;
}
