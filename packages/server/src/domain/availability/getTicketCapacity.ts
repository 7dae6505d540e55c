// Slots of one ticket on one date with what is left (go~mus GET /tickets/:id/capacity).
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import { dateParam, freeHolds, ticketDay, usage, visibleTickets, type SlotLeft } from './internal.ts';

export async function getTicketCapacity(
  ctx: Ctx,
  input: { ticketId: number; date?: string | undefined; reservations?: string[] | undefined },
): Promise<{ zone: string; slots: SlotLeft[] }> {
  const [t] = await visibleTickets(ctx, [input.ticketId]);
  if (!t) throw notFound('ticket');
  const date = dateParam(ctx, input.date, t.zone);
  const now = ctx.clock.now();
  const u = await usage(ctx, now, [t], [date], await freeHolds(ctx, input.reservations));
  // Sold-out slots are omitted (go~mus): a key means "bookable from here".
  return { zone: t.zone, slots: ticketDay(t, date, now, u, ctx.channel).filter((s) => s.left > 0) };
}
