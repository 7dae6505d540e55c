// Booked seats of event dates (live allocations), for `seats` in catalogue answers.
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.ts';
import { capacityAllocations as ca } from '../../db/schema/index.ts';
import { liveAt } from './used.ts';

/** The allocations that are the booked seats of the dates `ids` selects, at `now`. */
const seatsOf = (ids: SQL, now: Date | SQL): SQL => and(eq(ca.resource, 'event_date'), ids, liveAt(now))!;

export async function eventDateSeatsBooked(db: DbOrTx, dateIds: number[], now: Date): Promise<Map<number, number>> {
  const out = new Map<number, number>(dateIds.map((id) => [id, 0]));
  if (dateIds.length === 0) return out;
  const rows = await db
    .select({ id: ca.resourceId, booked: sql<number>`sum(${ca.quantity})::int` })
    .from(ca)
    .where(seatsOf(inArray(ca.resourceId, dateIds), now))
    .groupBy(ca.resourceId);
  for (const r of rows) out.set(r.id, r.booked);
  return out;
}

/**
 * The same count for one date as a scalar sub-select (`dateId`: a column or expression of the
 * caller's statement), so a page of dates reads its seats in its own statement (GET /dates,
 * docs/adr/0030-event-dates-in-one-statement.md).
 */
export function eventDateSeatsBookedSql(dateId: SQL | AnyPgColumn, now: Date | SQL): SQL {
  return sql`(select coalesce(sum(${ca.quantity}), 0)::int from ${ca} where ${seatsOf(eq(ca.resourceId, dateId), now)})`;
}
