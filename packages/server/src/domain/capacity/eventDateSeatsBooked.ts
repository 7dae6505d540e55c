// Booked seats of event dates (live allocations), for `seats` in catalogue answers.
import type { DbOrTx } from '../../db/client.ts';
import { bookedSeatsOfDates } from '../../db/repositories/capacityUsed.ts';

export async function eventDateSeatsBooked(db: DbOrTx, dateIds: number[], now: Date): Promise<Map<number, number>> {
  const out = new Map<number, number>(dateIds.map((id) => [id, 0]));
  if (dateIds.length === 0) return out;
  for (const r of await bookedSeatsOfDates(db, dateIds, now)) out.set(r.id, r.booked);
  return out;
}
