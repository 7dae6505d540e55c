// Reads of used capacity. THE definition of used (docs/api-contract.md §5): a
// capacity_allocations row counts while it is not released and either permanent (expires_at
// null) or not yet expired at `now`. Availability reads use liveAt() below; claims run the same
// condition under the lock inside capacity_claim (src/db/sql/capacity_claim.sql), where the
// permanent part comes from the running total in capacity_totals. A change here must be made
// there too.
import { and, eq, gt, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db, DbOrTx } from '../client.ts';
import { poolFor } from '../transaction.ts';
import { capacityAllocations as ca } from '../schema/index.ts';

/** `now`: the instant, or a placeholder for it in a statement rendered once. */
export function liveAt(now: Date | SQL): SQL {
  return and(isNull(ca.releasedAt), or(isNull(ca.expiresAt), gt(ca.expiresAt, now)))!;
}

// The hottest read of the service (every availability answer): a named prepared statement on
// the pool (parsed and planned once per connection, no query building per call). The condition
// is liveAt() above, written out.
const USED_SQL = `select resource_id, slot_start, sum(quantity)::int as used
  from capacity_allocations
 where resource = $1 and resource_id = any($2::int[]) and slot_start >= $3 and slot_start < $4
   and released_at is null and (expires_at is null or expires_at > $5)
   and (reservation_id is null or not (reservation_id = any($6::bigint[])))
 group by resource_id, slot_start`;

export type UsedRow = { resource_id: number; slot_start: Date; used: number };

/** Used quantity per resource and slot start in [from, to); `free`: holds counted as free. */
export async function usedRows(
  db: DbOrTx,
  q: { resource: string; resourceIds: number[]; from: Date; to: Date; now: Date; free: number[] },
): Promise<UsedRow[]> {
  const r = await poolFor(db, 'the used-capacity read').query<UsedRow>({ name: 'atrium_used_capacity', text: USED_SQL, values: [q.resource, q.resourceIds, q.from, q.to, q.now, q.free] });
  return r.rows;
}

/** Live tour runs of one tour that overlap [from, to). */
export function liveTourRuns(db: DbOrTx, now: Date, tourId: number, from: Date, to: Date): Promise<Array<{ start: Date; end: Date | null; quantity: number }>> {
  return db
    .select({ start: ca.slotStart, end: ca.slotEnd, quantity: ca.quantity })
    .from(ca)
    .where(and(eq(ca.resource, 'tour'), eq(ca.resourceId, tourId), lt(ca.slotStart, to), gt(ca.slotEnd, from), liveAt(now)));
}

/** The allocations that are the booked seats of the dates `ids` selects, at `now`. */
const seatsOf = (ids: SQL, now: Date | SQL): SQL => and(eq(ca.resource, 'event_date'), ids, liveAt(now))!;

/** Booked seats (live allocations) per event date among `dateIds`; dates without any are absent. */
export function bookedSeatsOfDates(db: DbOrTx, dateIds: number[], now: Date): Promise<Array<{ id: number; booked: number }>> {
  return db
    .select({ id: ca.resourceId, booked: sql<number>`sum(${ca.quantity})::int` })
    .from(ca)
    .where(seatsOf(inArray(ca.resourceId, dateIds), now))
    .groupBy(ca.resourceId);
}

/**
 * The same count for one date as a scalar sub-select (`dateId`: a column or expression of the
 * caller's statement), so a page of dates reads its seats in its own statement (GET /dates,
 * docs/adr/0022-catalogue-read-path.md).
 */
export function eventDateSeatsBookedSql(dateId: SQL | AnyPgColumn, now: Date | SQL): SQL {
  return sql`(select coalesce(sum(${ca.quantity}), 0)::int from ${ca} where ${seatsOf(eq(ca.resourceId, dateId), now)})`;
}
