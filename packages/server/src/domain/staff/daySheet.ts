// The day sheet of the console: per museum the opening hours and closures of one date, and per
// capacity pool (quota) and slot what the availability module reports (configured capacity,
// what is left) beside what was sold (active items of finalized orders) and checked in (valid
// entry scans), and the orders visiting that day (cancelled ones and those a closure shuts
// marked, not left out). Used capacity is never computed here: "held" is the availability module's
// used (capacity − left) minus sold, i.e. reservations and pending orders.
import { ticketSlotsPeopleIn, ticketSlotsSold, type TicketSlotCount } from '../../db/repositories/staff.ts';
import { getTicketCapacities } from '../availability/getTicketCapacities.ts';
import { dateParam, visibleTickets } from '../availability/internal.ts';
import { getOpeningHours, type OpeningHoursAnswer } from '../catalog/getOpeningHours.ts';
import type { Ctx } from '../context.ts';
import { inMuseumScope } from '../principal.ts';
import { listClosures } from '../schedules/readClosures.ts';
import type { ClosureView } from '../schedules/closureView.ts';
import { addDays, startOfLocalDay } from '../time.ts';
import { dayEvents, type DayEvent } from './dayEvents.ts';
import { dayOrders, type DayOrder } from './dayOrders.ts';
import { museumTitles, translated } from './labels.ts';

export interface DaySlot { start: Date; capacity: number; left: number | null; sold: number; held: number | null; checkedIn: number }
export interface DayPool { quotaId: number; tickets: string[]; slots: DaySlot[] }
export interface DayMuseum { id: number; title: string; zone: string; hours: OpeningHoursAnswer; closures: ClosureView[]; pools: DayPool[]; events: DayEvent[]; orders: DayOrder[] }

type Count = TicketSlotCount;

async function counts(ctx: Ctx, ticketIds: number[], from: Date, to: Date): Promise<{ sold: Count[]; inside: Count[] }> {
  if (ticketIds.length === 0) return { sold: [], inside: [] };
  const [sold, inside] = await Promise.all([ticketSlotsSold(ctx.db, ticketIds, from, to), ticketSlotsPeopleIn(ctx.db, ticketIds, from, to)]);
  return { sold, inside };
}

export async function daySheet(ctx: Ctx, input: { date?: string; locale: string }): Promise<{ date: string; museums: DayMuseum[] }> {
  const all = await museumTitles(ctx.db, input.locale);
  const mine = [...all.entries()].filter(([id]) => inMuseumScope(ctx.principal, id));
  const date = dateParam(ctx, input.date, mine[0]?.[1].zone ?? ctx.config.zone);
  const tix = (await visibleTickets(ctx, null)).filter((t) => mine.some(([id]) => id === t.museumId));
  const groups = tix.length ? await getTicketCapacities(ctx, { ticketIds: tix.map((t) => t.id), date }) : [];
  const now = ctx.clock.now();
  const out: DayMuseum[] = [];
  for (const [id, m] of mine) {
    const from = startOfLocalDay(date, m.zone);
    const to = startOfLocalDay(addDays(date, 1), m.zone);
    const own = tix.filter((t) => t.museumId === id);
    const { sold, inside } = await counts(ctx, own.map((t) => t.id), from, to);
    const pools: DayPool[] = [];
    for (const g of groups.filter((g) => g.tickets.some((tid) => own.some((t) => t.id === tid)))) {
      const whole = g.capacities.size === 1; // a day quota: one pool for the whole day
      const sum = (rows: Count[], start: number) => rows.filter((r) => g.tickets.includes(r.ticket_id) && (whole || r.start_at.getTime() === start)).reduce((s, r) => s + r.n, 0);
      const slots = [...g.capacities.entries()].sort((a, b) => a[0] - b[0]).map(([start, left]): DaySlot => {
        const capacity = g.totals.get(start) ?? 0;
        const s = sum(sold, start);
        const past = start < now.getTime();
        return { start: new Date(start), capacity, left: past ? null : left, sold: s, held: past ? null : Math.max(capacity - left - s, 0), checkedIn: sum(inside, start) };
      });
      pools.push({ quotaId: g.quotaId, tickets: g.tickets.map((tid) => translated(own.find((t) => t.id === tid)?.title ?? null, input.locale)).filter(Boolean), slots });
    }
    const [hours, closures, events] = await Promise.all([
      getOpeningHours(ctx, { id, date }),
      listClosures(ctx, { by_museum_ids: [id], from: date, to: date, per_page: 100 }),
      dayEvents(ctx, id, from, to, input.locale),
    ]);
    const orders = await dayOrders(ctx, id, from, to, closures.items.map((c) => c.id));
    out.push({ id, title: m.title, zone: m.zone, hours, closures: closures.items, pools, events, orders });
  }
  return { date, museums: out };
}
