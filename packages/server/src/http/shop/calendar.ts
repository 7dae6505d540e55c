// The month calendar of an offer: per day available, few left, sold out or closed, live from the
// availability verbs (the JSON API's /tickets/calendar and /tours/:id/start_times). The grid
// (weeks from Monday) is presentation; what is bookable is the verbs' answer.
import type { Ctx } from '../../domain/context.ts';
import { getTicketCalendar } from '../../domain/availability/getTicketCalendar.ts';
import { getTicketCalendarQuotas } from '../../domain/availability/getTicketCalendarQuotas.ts';
import { getTourCalendar } from '../../domain/availability/getTourCalendar.ts';
import { addDays, isValidDate, localDateOf, weekdayIndex } from '../../domain/time.ts';
import { kept } from './kit.ts';

export type DayState = 'available' | 'few' | 'soldout' | 'closed' | 'past';
export interface DayCell { date: string; day: number; state: DayState }
export interface Month { month: string; prev: string | null; next: string | null; weeks: Array<Array<DayCell | null>> }

/** At most this many places left on the day (across its slots) counts as "few left". */
export const FEW_LEFT = 10;
const MONTHS_AHEAD = 12;

function monthStart(ym: string): string {
  return `${ym}-01`;
}
function shiftMonth(ym: string, by: number): string {
  const [y, m] = ym.split('-').map(Number) as [number, number];
  const n = y * 12 + (m - 1) + by;
  return `${Math.floor(n / 12)}-${String((n % 12) + 1).padStart(2, '0')}`;
}
function lastDay(ym: string): string {
  return addDays(monthStart(shiftMonth(ym, 1)), -1);
}

/** The month asked for (YYYY-MM), kept between this month and a year ahead. */
export function pickMonth(ctx: Ctx, zone: string, asked: unknown): { month: string; today: string } {
  return pickMonthOn(localDateOf(ctx.clock.now(), zone), asked);
}

function pickMonthOn(today: string, asked: unknown): { month: string; today: string } {
  const current = today.slice(0, 7);
  const last = shiftMonth(current, MONTHS_AHEAD);
  const ok = typeof asked === 'string' && /^\d{4}-\d{2}$/.test(asked) && isValidDate(`${asked}-01`);
  const month = ok && asked >= current && asked <= last ? asked : current;
  return { month, today };
}

function grid(month: string, today: string, state: (date: string) => DayState): Month {
  const first = monthStart(month);
  const end = lastDay(month);
  const weeks: Array<Array<DayCell | null>> = [];
  let week: Array<DayCell | null> = Array.from({ length: weekdayIndex(first) }, () => null);
  for (let d = first; d <= end; d = addDays(d, 1)) {
    week.push({ date: d, day: Number(d.slice(8)), state: d < today ? 'past' : state(d) });
    if (week.length === 7) {
      weeks.push(week);
      week = [];
    }
  }
  if (week.length) weeks.push([...week, ...Array.from({ length: 7 - week.length }, () => null)]);
  const current = today.slice(0, 7);
  return { month, prev: month > current ? shiftMonth(month, -1) : null, next: month < shiftMonth(current, MONTHS_AHEAD) ? shiftMonth(month, 1) : null, weeks };
}

/** The range asked of the verbs: from today (or the month's start) to the month's end. */
function range(month: string, today: string) {
  const first = monthStart(month);
  return { startAt: first < today ? today : first, endAt: lastDay(month) };
}

export async function ticketMonth(ctx: Ctx, ticketId: number, zone: string, asked: unknown): Promise<Month> {
  const { month, today } = pickMonth(ctx, zone, asked);
  return grid(month, today, await ticketStates(ctx, ticketId, range(month, today)));
}

/** The state of one day (today or later) as the month calendar shows it, computed for that day alone. */
export async function ticketDayState(ctx: Ctx, ticketId: number, date: string): Promise<DayState> {
  return (await ticketStates(ctx, ticketId, { startAt: date, endAt: date }))(date);
}

/**
 * A day's state (not yet past) within `r`: available, few left, sold out or closed,
 * from the verbs' bookable days and places left per quota.
 */
async function ticketStates(ctx: Ctx, ticketId: number, r: { startAt: string; endAt: string }): Promise<(date: string) => DayState> {
  const input = { ticketIds: [ticketId], ...r };
  const [bookable, quotas] = await Promise.all([getTicketCalendar(ctx, input), getTicketCalendarQuotas(ctx, input)]);
  // Places left on a day: the tightest quota's places over all its slots.
  const left = new Map<string, number | null>();
  for (const [date, groups] of quotas) {
    const slots = groups.map((g) => g.quota.capacities.reduce((s, c) => s + Object.values(c).reduce((a, b) => a + b, 0), 0));
    const hasSlots = groups.some((g) => g.quota.capacities.length > 0);
    left.set(date, hasSlots ? Math.min(...slots) : null);
  }
  return (d) => {
    const l = left.get(d);
    if (l === null || l === undefined) return bookable.get(d) ? 'available' : 'closed';
    // Not bookable with places left (the day's last entry passed, outside the ticket's
    // validity): closed for sale rather than sold out.
    if (!bookable.get(d)) return l > 0 ? 'closed' : 'soldout';
    return l <= FEW_LEFT ? 'few' : 'available';
  };
}

export interface DayNav { month: string; prev: string | null; next: string | null }

/**
 * The day page's way on: the day before and after (within the months the calendar offers) and
 * its month's calendar. `null` when `date` is not a day the calendar offers (past, too far ahead).
 */
export function dayNav(ctx: Ctx, zone: string, date: string): DayNav | null {
  return dayNavOn(localDateOf(ctx.clock.now(), zone), date);
}

/** The same for the day `today` is (a day's neighbours only change with the date). */
const dayNavOn = kept(4096, (today: string, date: string) => `${today}|${date}`, (today: string, date: string): DayNav | null => {
  const { month } = pickMonthOn(today, date.slice(0, 7));
  if (date < today || month !== date.slice(0, 7)) return null;
  const before = addDays(date, -1);
  const after = addDays(date, 1);
  const last = lastDay(shiftMonth(today.slice(0, 7), MONTHS_AHEAD));
  return { month, prev: before >= today ? before : null, next: after <= last ? after : null };
});

export async function tourMonth(ctx: Ctx, tourId: number, zone: string, asked: unknown): Promise<Month> {
  const { month, today } = pickMonth(ctx, zone, asked);
  const days = await getTourCalendar(ctx, { tourId, ...range(month, today) });
  return grid(month, today, (d) => (days.get(d) ? 'available' : 'closed'));
}
