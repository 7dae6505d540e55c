// What the box-office form offers: the tickets of the user's museums and, for one ticket and
// date, its slots with what is left, as the availability module reports it (a ticket drawing on
// several quotas has the minimum of them left).
import { getTicketCapacities } from '../availability/getTicketCapacities.ts';
import { dateParam, visibleTickets } from '../availability/internal.ts';
import type { Ctx } from '../context.ts';
import { inMuseumScope } from '../principal.ts';
import { translated } from './labels.ts';

export async function deskTickets(ctx: Ctx, locale: string) {
  const tix = (await visibleTickets(ctx, null)).filter((t) => inMuseumScope(ctx.principal, t.museumId));
  return tix.map((t) => ({ id: t.id, title: translated(t.title, locale), priceCents: t.priceCents, zone: t.zone })).sort((a, b) => a.title.localeCompare(b.title));
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
