// GET /calendar (go~mus §4.4): per day of a range (at most a year, default today to the end of
// the month) whether an event date the caller sees can still be booked, or with depth=all the
// dates of each day with their seats. Built on listDates, so visibility, seats and closures are
// the same rules as GET /dates.
import type { Ctx } from '../context.ts';
import { addDays, localDateOf, startOfLocalDay } from '../time.ts';
import { dateRange, datesPage } from './datesPage.ts';
import { resolveLocale } from './internal.ts';
import { datesFilterOf, type ListDatesInput } from './listDates.ts';
import type { View } from './views.ts';

/**
 * Dates read per statement. The calendar needs every date of the range, not a caller's page, so
 * it reads in large windows: a year of a busy museum's dates is a handful of statements, never
 * one per day nor one per caller-sized page.
 */
const WINDOW = 2_000;

export interface EventCalendarInput extends Omit<ListDatesInput, 'page' | 'per_page' | 'date'> {
  depth?: 'any' | 'all' | undefined;
}

/** A text in one locale, or keyed by locale when several were asked for (locale[]=). */
type Translated = string | Record<string, string | null> | null;

export interface CalendarDate {
  id: number;
  event_id: number;
  title: Translated;
  sub_title: Translated;
  start_time: string;
  bookable: boolean;
  seats: { max: number; booked: number; available: number };
}

export async function getEventCalendar(ctx: Ctx, input: EventCalendarInput): Promise<Array<[string, boolean | Array<{ date: CalendarDate }>]>> {
  const zone = ctx.config.zone;
  const L = resolveLocale(ctx, input.locale);
  const range = dateRange(ctx, zone, input);
  const days = new Map<string, Array<{ date: CalendarDate }>>();
  for (let d = localDateOf(range.from, zone); startOfLocalDay(d, zone) < range.to; d = addDays(d, 1)) days.set(d, []);
  const filter = datesFilterOf(ctx, input);
  // The same dates, seats and closures as GET /dates (datesPage), in windows of WINDOW dates.
  for (let page = 1; ; page++) {
    const got = await datesPage(ctx, filter, range, { page, perPage: WINDOW, offset: (page - 1) * WINDOW }, L);
    for (const v of got.items as Array<View & CalendarDate>) {
      days.get(v.start_time.slice(0, 10))?.push({
        date: { id: v.id, event_id: v.event_id, title: v.title, sub_title: v.sub_title, start_time: v.start_time, bookable: v.bookable, seats: { max: v.seats.max, booked: v.seats.booked, available: v.seats.available } },
      });
    }
    if (page * got.meta.per_page >= got.meta.total_count || got.items.length === 0) break;
  }
  return [...days].map(([day, dates]) => [day, input.depth === 'all' ? dates : dates.some((x) => x.date.bookable)]);
}
