// GET /calendar (go~mus §4.4): per day of a range (at most 31 days, default today to the end of
// the month) whether an event date the caller sees can still be booked, or with depth=all the
// dates of each day with their seats. Built on listDates, so visibility, seats and closures are
// the same rules as GET /dates.
import type { Ctx } from '../context.ts';
import { addDays, localDateOf, startOfLocalDay } from '../time.ts';
import { dateRange } from './datesPage.ts';
import { listDates, type ListDatesInput } from './listDates.ts';
import type { View } from './views.ts';

const MAX_DAYS = 31;

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
  const range = dateRange(ctx, zone, input, MAX_DAYS);
  const days = new Map<string, Array<{ date: CalendarDate }>>();
  for (let d = localDateOf(range.from, zone); startOfLocalDay(d, zone) < range.to; d = addDays(d, 1)) days.set(d, []);
  const { depth: _depth, ...filters } = input;
  // At most 31 days of dates, a page at a time (the page size is the caller's cap).
  for (let page = 1; ; page++) {
    const got = await listDates(ctx, { ...filters, start_at: localDateOf(range.from, zone), end_at: addDays(localDateOf(range.to, zone), -1), page, per_page: 100 });
    for (const v of got.items as Array<View & CalendarDate>) {
      days.get(v.start_time.slice(0, 10))?.push({
        date: { id: v.id, event_id: v.event_id, title: v.title, sub_title: v.sub_title, start_time: v.start_time, bookable: v.bookable, seats: { max: v.seats.max, booked: v.seats.booked, available: v.seats.available } },
      });
    }
    if (page * got.meta.per_page >= got.meta.total_count || got.items.length === 0) break;
  }
  return [...days].map(([day, dates]) => [day, input.depth === 'all' ? dates : dates.some((x) => x.date.bookable)]);
}
