// The event dates of one museum-local day for the day sheet: seats, booked (the capacity
// module's live allocations: sold, held and pending together), sold (active items of finalized
// orders), held = booked − sold, and checked in (valid entry scans).
import { eventDatePeopleIn, eventDateSeatsSold, eventDatesOfDay } from '../../db/repositories/staff.ts';
import { eventDateSeatsBooked } from '../capacity/eventDateSeatsBooked.ts';
import type { Ctx } from '../context.ts';
import { translated } from './labels.ts';

export interface DayEvent { id: number; title: string; start: Date; seats: number; sold: number; held: number; checkedIn: number }

export async function dayEvents(ctx: Ctx, museumId: number, from: Date, to: Date, locale: string): Promise<DayEvent[]> {
  const dates = await eventDatesOfDay(ctx.db, museumId, from, to);
  if (dates.length === 0) return [];
  const ids = dates.map((d) => d.id);
  const [booked, sold, inside] = await Promise.all([
    eventDateSeatsBooked(ctx.db, ids, ctx.clock.now()),
    eventDateSeatsSold(ctx.db, ids),
    eventDatePeopleIn(ctx.db, ids),
  ]);
  const by = (rows: Array<{ id: number; n: number }>) => new Map(rows.map((r) => [r.id, r.n]));
  const soldBy = by(sold);
  const inBy = by(inside);
  return dates.map((d) => {
    const s = soldBy.get(d.id) ?? 0;
    return { id: d.id, title: translated(d.title, locale), start: new Date(d.start_at), seats: d.seats_max, sold: s, held: Math.max((booked.get(d.id) ?? 0) - s, 0), checkedIn: inBy.get(d.id) ?? 0 };
  });
}
