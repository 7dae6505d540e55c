// What the box-office form offers: the tickets of the user's museums (in a stable order: museum,
// then title) and, for a date, each ticket's slots with what is left, as the availability module
// reports it at the desk (a ticket drawing on several quotas has the minimum of them left; the
// running slot is still offered to walk-ins, schedules/saleWindow.ts), plus the day's event dates
// and tour starts.
import { getTicketCapacities } from '../availability/getTicketCapacities.ts';
import { dateParam, visibleTickets } from '../availability/internal.ts';
import type { Ctx } from '../context.ts';
import { inMuseumScope } from '../principal.ts';
import { addDays, startOfLocalDay } from '../time.ts';
import { dayEvents } from './dayEvents.ts';
import { deskTours, type DeskTour } from './deskTours.ts';
import { translated } from './labels.ts';

export interface DeskTicket { id: number; museumId: number; title: string; priceCents: number; zone: string; timed: boolean }

export async function deskTickets(ctx: Ctx, locale: string): Promise<DeskTicket[]> {
  const tix = (await visibleTickets(ctx, null)).filter((t) => inMuseumScope(ctx.principal, t.museumId));
  return tix
    .map((t) => ({ id: t.id, museumId: t.museumId, title: translated(t.title, locale), priceCents: t.priceCents, zone: t.zone, timed: t.ticketType === 'time_slot' }))
    .sort((a, b) => a.museumId - b.museumId || a.title.localeCompare(b.title) || a.id - b.id);
}

export async function deskSlots(ctx: Ctx, input: { ticketId: number; date?: string }) {
  const [t] = await visibleTickets(ctx, [input.ticketId]);
  if (!t || !inMuseumScope(ctx.principal, t.museumId)) return { date: dateParam(ctx, input.date, ctx.config.zone), zone: ctx.config.zone, slots: [] };
  const date = dateParam(ctx, input.date, t.zone);
  const groups = await getTicketCapacities(ctx, { ticketIds: [t.id], date });
  const left = new Map<number, number>();
  for (const g of groups) {
    for (const [start, n] of g.capacities) left.set(start, Math.min(left.get(start) ?? Infinity, n));
  }
  const slots = [...left.entries()].filter(([, n]) => n > 0).sort((a, b) => a[0] - b[0]).map(([start, n]) => ({ start: new Date(start), left: n }));
  return { date, zone: t.zone, slots };
}

export interface DeskOffer {
  date: string;
  zone: string;
  tickets: Array<DeskTicket & { slots: Array<{ start: Date; left: number }> }>;
  /** Slot starts of the timed tickets, ascending (the form's one time choice). */
  times: Date[];
  events: Array<{ id: number; title: string; start: Date; left: number }>;
  /** Tours with their free starts that day and their languages. */
  tours: DeskTour[];
}

/** Everything the sale form offers on a date (ctx should carry the desk channel). */
export async function deskOffer(ctx: Ctx, locale: string, date?: string): Promise<DeskOffer> {
  const tickets = await deskTickets(ctx, locale);
  const zone = tickets[0]?.zone ?? ctx.config.zone;
  const day = dateParam(ctx, date, zone);
  const withSlots = await Promise.all(tickets.map(async (t) => ({ ...t, slots: (await deskSlots(ctx, { ticketId: t.id, date: day })).slots })));
  const times = [...new Set(withSlots.filter((t) => t.timed).flatMap((t) => t.slots.map((s) => s.start.getTime())))].sort((a, b) => a - b).map((n) => new Date(n));
  const from = startOfLocalDay(day, zone);
  const to = startOfLocalDay(addDays(day, 1), zone);
  const museums = [...new Set(tickets.map((t) => t.museumId))];
  const events = (await Promise.all(museums.map((m) => dayEvents(ctx, m, from, to, locale)))).flat()
    .map((e) => ({ id: e.id, title: e.title, start: e.start, left: Math.max(e.seats - e.sold - e.held, 0) }))
    .filter((e) => e.left > 0);
  return { date: day, zone, tickets: withSlots, times, events, tours: await deskTours(ctx, locale, day) };
}
