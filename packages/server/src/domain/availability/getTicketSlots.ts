// The slots of one bookable ticket over a range of days, each with what is left and the capacity
// it draws on, read with ONE used-capacity query (the same machinery as the go~mus calendar and
// capacity reads, so the numbers can never disagree). For distribution answers that list every
// day, closed ones included (an empty slot list), and tell how full a slot is.
import { ticketById, ticketsByIds } from '../capacity/catalog.ts';
import { isBookableBy } from '../catalog/visibility.ts';
import type { Ctx } from '../context.ts';
import { invalid } from '../errors.ts';
import { addDays, daysBetween, isValidDate } from '../time.ts';
import { MAX_CALENDAR_DAYS } from './getTicketCalendar.ts';
import { freeHolds, ticketDayDetail, usage, type TicketRow } from './internal.ts';

export interface DaySlots {
  date: string;
  slots: Array<{ start: Date; left: number; capacity: number | null }>;
}

/** The ticket the caller may book, or null (unknown, or not offered to this caller). */
export async function bookableTicket(ctx: Ctx, ticketId: number): Promise<TicketRow | null> {
  if (!Number.isSafeInteger(ticketId) || ticketId < 1 || ticketId > 2_147_483_647) return null;
  const t = await ticketById(ctx, ctx.db, ticketId);
  return t && isBookableBy(ctx.principal, t) ? t : null;
}

/** Every day from `from` to `to` (at most MAX_CALENDAR_DAYS) with its slots; null: not bookable. */
export async function getTicketSlots(ctx: Ctx, input: { ticketId: number; from: string; to: string }): Promise<{ ticket: TicketRow; days: DaySlots[] } | null> {
  const t = await bookableTicket(ctx, input.ticketId);
  if (!t) return null;
  if (!isValidDate(input.from) || !isValidDate(input.to)) throw invalid('dates must be YYYY-MM-DD');
  const span = daysBetween(input.from, input.to);
  if (span < 0) throw invalid('the end date must not be before the start date');
  if (span >= MAX_CALENDAR_DAYS) throw invalid(`a range spans at most ${MAX_CALENDAR_DAYS} days`);
  const dates = Array.from({ length: span + 1 }, (_, i) => addDays(input.from, i));
  const now = ctx.clock.now();
  const u = await usage(ctx, now, [t], dates, await freeHolds(ctx, []));
  return { ticket: t, days: dates.map((date) => ({ date, slots: ticketDayDetail(t, date, now, u) })) };
}

/** Every ticket the caller may book, in id order. */
export async function listBookableTickets(ctx: Ctx): Promise<TicketRow[]> {
  return (await ticketsByIds(ctx, ctx.db, null)).filter((t) => isBookableBy(ctx.principal, t));
}
