// The event dates of one museum-local day for the day sheet: seats, booked (the capacity
// module's live allocations: sold, held and pending together), sold (active items of finalized
// orders), held = booked − sold, and checked in (valid entry scans).
import { sql } from 'drizzle-orm';
import { eventDateSeatsBooked } from '../capacity/eventDateSeatsBooked.ts';
import type { Ctx } from '../context.ts';
import { translated } from './labels.ts';

export interface DayEvent { id: number; title: string; start: Date; seats: number; sold: number; held: number; checkedIn: number }

export async function dayEvents(ctx: Ctx, museumId: number, from: Date, to: Date, locale: string): Promise<DayEvent[]> {
  const dates = (await ctx.db.execute<{ id: number; title: Record<string, string>; start_at: string; seats_max: number }>(sql`
    select d.id, e.title, d.start_at, d.seats_max from event_dates d join events e on e.id = d.event_id
     where e.museum_id = ${museumId} and d.start_at >= ${from} and d.start_at < ${to} order by d.start_at, d.id limit 200`)).rows;
  if (dates.length === 0) return [];
  const ids = `{${dates.map((d) => d.id).join(',')}}`;
  const [booked, sold, inside] = await Promise.all([
    eventDateSeatsBooked(ctx.db, dates.map((d) => d.id), ctx.clock.now()),
    ctx.db.execute<{ id: number; n: number }>(sql`
      select oi.event_date_id as id, sum(oi.quantity)::int as n from order_items oi join orders o on o.id = oi.order_id
       where oi.event_date_id = any(${ids}::int[]) and oi.status = 'active' and o.status = 'finalized' group by 1`),
    ctx.db.execute<{ id: number; n: number }>(sql`
      select oi.event_date_id as id, sum(s.people_count)::int as n from scans s join order_items oi on oi.id = s.order_item_id
       where oi.event_date_id = any(${ids}::int[]) and s.result = 'valid' and s.direction = 'entry' group by 1`),
  ]);
  const by = (rows: Array<{ id: number; n: number }>) => new Map(rows.map((r) => [r.id, r.n]));
  const soldBy = by(sold.rows);
  const inBy = by(inside.rows);
  return dates.map((d) => {
    const s = soldBy.get(d.id) ?? 0;
    return { id: d.id, title: translated(d.title, locale), start: new Date(d.start_at), seats: d.seats_max, sold: s, held: Math.max((booked.get(d.id) ?? 0) - s, 0), checkedIn: inBy.get(d.id) ?? 0 };
  });
}
