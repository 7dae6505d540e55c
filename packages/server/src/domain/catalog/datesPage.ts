// Shared by GET /events/:id/dates and GET /dates: the date range rules and one page of dates
// with their seats (booked counts come from the capacity module, the only definition of usage)
// and whether the sellability rule closes them (schedules/eventDates.ts). The page's statements
// are the catalogue repository's (db/repositories/catalog/datesPages.ts).
import { readDatesPage } from '../../db/repositories/catalog/datesPages.ts';
import type { DateRange, DatesFilter } from '../../db/repositories/catalog/dateStatements.ts';
import { closedIn } from '../schedules/eventDates.ts';
import { scheduleFrom, schedulesOf, type Schedule, type ScheduleJson } from '../schedules/schedule.ts';
import type { Ctx } from '../context.ts';
import { invalid } from '../errors.ts';
import { addDays, daysBetween, isValidDate, localDateOf, startOfLocalDay } from '../time.ts';
import { pageOf, type LocaleMode, type Page, type Paging } from './internal.ts';
import { windowOf } from './fragments.ts';
import { eventDateView, type View } from './views.ts';

export interface RangeInput {
  date?: string | undefined;
  start_at?: string | undefined;
  end_at?: string | undefined;
}

function endOfMonth(date: string): string {
  const [y, m] = date.split('-').map(Number) as [number, number];
  const next = m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
  return addDays(next, -1);
}

/**
 * The longest range of days a calendar or a date list answers: a year, leap day included. go~mus
 * clients ask for several weeks at once; a longer range is a 422 that names this limit.
 */
export const MAX_RANGE_DAYS = 366;

/** Local days [start_at, end_at] (default today to the end of the month) as an instant range. */
export function dateRange(ctx: Ctx, zone: string, input: RangeInput, maxDays = MAX_RANGE_DAYS): { from: Date; to: Date } {
  for (const k of ['date', 'start_at', 'end_at'] as const) {
    const v = input[k];
    if (v !== undefined && !isValidDate(v)) throw invalid(`${k} must be a valid date (YYYY-MM-DD)`);
  }
  const today = localDateOf(ctx.clock.now(), zone);
  const start = input.date ?? input.start_at ?? today;
  const end = input.date ?? input.end_at ?? endOfMonth(start);
  if (end < start) throw invalid('end_at must not be before start_at');
  if (daysBetween(start, end) + 1 > maxDays) {
    throw invalid(`the date range may span at most ${maxDays} days`);
  }
  return { from: startOfLocalDay(start, zone), to: startOfLocalDay(addDays(end, 1), zone) };
}

export async function datesPage(ctx: Ctx, filter: DatesFilter, range: DateRange, pg: Paging, L: LocaleMode): Promise<Page<View>> {
  const now = ctx.clock.now();
  const page = await readDatesPage(ctx, filter, range, windowOf(pg), now);
  const { rows, booked, total } = page;
  // The page's museums' schedules came with it when there is no master-data memo.
  const scheds = page.schedules ? schedulesFrom(page.schedules) : await schedulesOf(ctx, ctx.db, rows.map((r) => r.event.museumId));
  const closed = closedIn(scheds, rows.map((r) => ({ museumId: r.event.museumId, eventId: r.event.id, startAt: r.date.startAt, duration: r.date.duration })));
  return pageOf(
    rows.map((r, i) =>
      eventDateView(ctx.principal, r.date, r.event, L, { zone: r.zone, booked: booked[i]!, language: r.language, category: r.category, now, closed: closed[i]! }),
    ),
    total,
    pg,
  );
}

function schedulesFrom(json: ReadonlyMap<number, ScheduleJson>): Map<number, Schedule> {
  const out = new Map<number, Schedule>();
  for (const [museumId, j] of json) out.set(museumId, scheduleFrom(museumId, j));
  return out;
}
