// Per day whether anything of the given tickets can still be booked (go~mus GET
// /tickets/calendar, depth=any). At most a year; one used-capacity query for the whole range.
import type { Ctx } from '../context.ts';
import { invalid } from '../errors.ts';
import { addDays, daysBetween, isValidDate, localDateOf } from '../time.ts';
import { MAX_RANGE_DAYS } from '../catalog/datesPage.ts';
import { freeHolds, ticketDayHasRoom, usage, visibleTickets } from './internal.ts';

/** The same limit as the event calendar and the date lists (catalog/datesPage.ts). */
export const MAX_CALENDAR_DAYS = MAX_RANGE_DAYS;

// The same few ranges are asked over and over (this month, the next weeks): each is spelled
// out once. Only valid ranges are kept; the arrays are shared, so callers never mutate them.
const ranges = new Map<string, string[]>();

/** start_at/end_at as dates: defaults today → end of that month; at most MAX_CALENDAR_DAYS days. */
export function calendarRange(today: string, startAtIn?: string, endAtIn?: string): string[] {
  const key = `${today}|${startAtIn ?? ''}|${endAtIn ?? ''}`;
  let dates = ranges.get(key);
  if (!dates) {
    dates = spellRange(today, startAtIn, endAtIn);
    if (ranges.size >= 1_000) ranges.clear();
    ranges.set(key, dates);
  }
  return dates;
}

function spellRange(today: string, startAtIn?: string, endAtIn?: string): string[] {
  // A full timestamp is accepted too; only its (local) date part counts.
  const day = (v?: string) => (v && /^\d{4}-\d{2}-\d{2}T/.test(v) ? v.slice(0, 10) : v);
  const startAt = day(startAtIn);
  const endAt = day(endAtIn);
  for (const [name, v] of [['start_at', startAt], ['end_at', endAt]] as const) {
    if (v !== undefined && v !== '' && !isValidDate(v)) throw invalid(`${name} must be a date (YYYY-MM-DD)`);
  }
  const start = startAt || today;
  const [y, m] = start.split('-').map(Number) as [number, number];
  const end = endAt || addDays(`${m === 12 ? y + 1 : y}-${String(m === 12 ? 1 : m + 1).padStart(2, '0')}-01`, -1);
  const span = daysBetween(start, end);
  if (span < 0) throw invalid('end_at must not be before start_at');
  if (span >= MAX_CALENDAR_DAYS) throw invalid(`the calendar spans at most ${MAX_CALENDAR_DAYS} days`);
  return Array.from({ length: span + 1 }, (_, i) => addDays(start, i));
}

export async function getTicketCalendar(
  ctx: Ctx,
  input: { ticketIds?: number[] | undefined; startAt?: string | undefined; endAt?: string | undefined; reservations?: string[] | undefined },
): Promise<Map<string, boolean>> {
  const now = ctx.clock.now();
  const tix = await visibleTickets(ctx, input.ticketIds?.length ? input.ticketIds : null);
  const dates = calendarRange(localDateOf(now, tix[0]?.zone ?? ctx.config.zone), input.startAt, input.endAt);
  const out = new Map<string, boolean>();
  if (tix.length === 0) {
    for (const d of dates) out.set(d, false);
    return out;
  }
  const u = await usage(ctx, now, tix, dates, await freeHolds(ctx, input.reservations));
  for (const d of dates) out.set(d, tix.some((t) => ticketDayHasRoom(t, d, now, u)));
  return out;
}
