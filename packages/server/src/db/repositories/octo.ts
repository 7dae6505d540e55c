// Statements on OCTO bookings (db/schema/octo.ts): the OCTO side of reseller orders, the per-booking
// lock that makes a repeated reserve find the first, and the two order columns OCTO changes
// (test mode; the hold's expiry with its allocations').
import { and, asc, eq, gte, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../client.ts';
import { capacityAllocations as ca, octoBookings, orderItems, orders } from '../schema/index.ts';

export type OctoBookingRow = typeof octoBookings.$inferSelect;
export type OctoBookingInsert = typeof octoBookings.$inferInsert;

/** One advisory transaction lock per (account, booking uuid): repeats of one reserve run in turn. */
export async function lockOctoUuid(tx: Tx, key: bigint): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${key.toString()}::bigint)`);
}

export async function findOctoBooking(db: DbOrTx, accountId: number, uuid: string, forUpdate = false): Promise<OctoBookingRow | null> {
  const q = db.select().from(octoBookings).where(and(eq(octoBookings.accountId, accountId), eq(octoBookings.uuid, uuid)));
  const [r] = await (forUpdate ? q.for('update') : q);
  return r ?? null;
}

export async function insertOctoBooking(tx: DbOrTx, row: OctoBookingInsert): Promise<OctoBookingRow> {
  const [r] = await tx.insert(octoBookings).values(row).returning();
  return r!;
}

export async function updateOctoBooking(tx: DbOrTx, accountId: number, uuid: string, values: Partial<OctoBookingInsert>): Promise<void> {
  await tx.update(octoBookings).set(values).where(and(eq(octoBookings.accountId, accountId), eq(octoBookings.uuid, uuid)));
}

export interface OctoBookingFilter {
  resellerReference?: string | undefined;
  orderId?: number | undefined;
  /** Bookings with an item starting in [from, to). */
  startFrom?: Date | undefined;
  startTo?: Date | undefined;
}

/** An account's bookings matching every given filter, oldest first (at most `limit`). */
export async function listOctoBookings(db: DbOrTx, accountId: number, f: OctoBookingFilter, limit: number): Promise<OctoBookingRow[]> {
  const conds = [eq(octoBookings.accountId, accountId)];
  if (f.resellerReference !== undefined) conds.push(eq(octoBookings.resellerReference, f.resellerReference));
  if (f.orderId !== undefined) conds.push(eq(octoBookings.orderId, f.orderId));
  if (f.startFrom && f.startTo) {
    const inRange = db
      .select({ id: orderItems.orderId })
      .from(orderItems)
      .where(and(gte(orderItems.startAt, f.startFrom), lt(orderItems.startAt, f.startTo)));
    conds.push(inArray(octoBookings.orderId, inRange));
  }
  return db.select().from(octoBookings).where(and(...conds)).orderBy(asc(octoBookings.createdAt)).limit(limit);
}

export async function markOrderTestMode(tx: DbOrTx, orderId: number): Promise<void> {
  await tx.update(orders).set({ testMode: true }).where(eq(orders.id, orderId));
}

/**
 * Moves the expiry of a pending order and of its live temporary allocations to `expiresAt`.
 * Permanent, released or lapsed rows are left alone; the caller holds the pools' locks.
 */
export async function moveHoldExpiry(tx: Tx, orderId: number, itemIds: number[], expiresAt: Date, now: Date): Promise<void> {
  if (itemIds.length) {
    await tx
      .update(ca)
      .set({ expiresAt })
      .where(and(inArray(ca.orderItemId, itemIds), isNull(ca.releasedAt), isNotNull(ca.expiresAt), sql`${ca.expiresAt} > ${now.toISOString()}::timestamptz`));
  }
  await tx.update(orders).set({ expiresAt, updatedAt: now }).where(eq(orders.id, orderId));
}
