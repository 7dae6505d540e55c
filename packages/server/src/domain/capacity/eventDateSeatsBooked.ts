// Booked seats of event dates (live allocations), for `seats` in catalogue answers.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { capacityAllocations as ca } from '../../db/schema/index.ts';
import { liveAt } from './used.ts';

export async function eventDateSeatsBooked(db: DbOrTx, dateIds: number[], now: Date): Promise<Map<number, number>> {
  const out = new Map<number, number>(dateIds.map((id) => [id, 0]));
  if (dateIds.length === 0) return out;
  const rows = await db
    .select({ id: ca.resourceId, booked: sql<number>`sum(${ca.quantity})::int` })
    .from(ca)
    .where(and(eq(ca.resource, 'event_date'), inArray(ca.resourceId, dateIds), liveAt(now)))
    .groupBy(ca.resourceId);
  for (const r of rows) out.set(r.id, r.booked);
  return out;
}
