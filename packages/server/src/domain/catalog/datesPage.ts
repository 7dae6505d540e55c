// Shared by GET /events/:id/dates and GET /dates: the date range rules and one page of dates
// with their seats (booked counts come from the capacity module, the only definition of usage).
import { and, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import { categories, eventDates, events, languages, museums } from '../../db/schema/index.ts';
import { eventDateSeatsBooked } from '../capacity/index.ts';
import { closedEventDates } from '../schedules/eventDates.ts';
import type { Ctx } from '../context.ts';
import { invalid } from '../errors.ts';
import { addDays, daysBetween, isValidDate, localDateOf, startOfLocalDay } from '../time.ts';
import { pageOf, type LocaleMode, type Page, type Paging } from './internal.ts';
import { pick, prefixedColumnsOf, rowsOf } from './pageQuery.ts';
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

/** Local days [start_at, end_at] (default today to the end of the month) as an instant range. */
export function dateRange(ctx: Ctx, zone: string, input: RangeInput, maxDays?: number): { from: Date; to: Date } {
  for (const k of ['date', 'start_at', 'end_at'] as const) {
    const v = input[k];
    if (v !== undefined && !isValidDate(v)) throw invalid(`${k} must be a valid date (YYYY-MM-DD)`);
  }
  const today = localDateOf(ctx.clock.now(), zone);
  const start = input.date ?? input.start_at ?? today;
  const end = input.date ?? input.end_at ?? endOfMonth(start);
  if (end < start) throw invalid('end_at must not be before start_at');
  if (maxDays !== undefined && daysBetween(start, end) + 1 > maxDays) {
    throw invalid(`the date range may span at most ${maxDays} days`);
  }
  return { from: startOfLocalDay(start, zone), to: startOfLocalDay(addDays(end, 1), zone) };
}

/** The dates a list shows: `where`, active, starting inside the range (also GET /dates/languages). */
export function datesCond(where: SQL | undefined, range: { from: Date; to: Date }): SQL | undefined {
  return and(where, eq(eventDates.active, true), gte(eventDates.startAt, range.from), lt(eventDates.startAt, range.to));
}

export async function datesPage(ctx: Ctx, where: SQL | undefined, range: { from: Date; to: Date }, pg: Paging, L: LocaleMode): Promise<Page<View>> {
  const cond = datesCond(where, range);
  // The page and the total in one named prepared statement (pageQuery.ts): PostgreSQL plans this
  // five-table join once per connection, not on every request (≈ 2.5 ms of planning each), and
  // the rows skip Drizzle's select builder and row mapping. A page past the end has no row to
  // carry the total and counts on its own. The window counts ids only; the page's 25 dates are
  // joined back for their columns (ADR 0026).
  //
  // `id + 0`, not `id`, in the window: with a LIMIT the planner walks the primary key in id order
  // and filters every date of the catalogue, not seeing that the window count reads them all
  // anyway (50,000 dates: 15 ms). Without an index order to follow it takes the start_at range and
  // sorts the few hundred dates of the range (EXPLAIN ANALYZE, bench/README.md).
  const D = prefixedColumnsOf(eventDates, 'd.');
  const E = prefixedColumnsOf(events, 'e.');
  const raw = await rowsOf<Record<string, unknown>>(
    ctx.db,
    sql`select ${D.sql}, ${E.sql}, ${museums.timeZone} as "zone", ${languages.id} as "languageId", ${languages.name} as "languageName",
        ${categories.id} as "categoryId", ${categories.name} as "categoryName", "page"."total"
      from (select ${eventDates.id} as "id", count(*) over () as "total" from ${eventDates} inner join ${events} on ${events.id} = ${eventDates.eventId}
              where ${cond} order by ${eventDates.id} + 0 limit ${pg.perPage} offset ${pg.offset}) as "page"
      inner join ${eventDates} on ${eventDates.id} = "page"."id"
      inner join ${events} on ${events.id} = ${eventDates.eventId}
      inner join ${museums} on ${museums.id} = ${events.museumId}
      left join ${languages} on ${languages.id} = ${eventDates.languageId}
      left join ${categories} on ${categories.id} = ${events.categoryId}
      order by ${eventDates.id}`,
  );
  // The shapes Drizzle's select gave (a left-joined record is null when absent).
  const rows = raw.map((r) => ({
    date: pick<typeof eventDates.$inferSelect>(r, D.keys),
    event: pick<typeof events.$inferSelect>(r, E.keys),
    zone: r.zone as string,
    language: r.languageId === null ? null : { id: r.languageId as number, name: r.languageName as string },
    category: r.categoryId === null ? null : { id: r.categoryId as number, name: r.categoryName as string },
    total: Number(r.total),
  }));
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && pg.offset > 0) {
    const [c] = await ctx.db.select({ n: sql<number>`count(*)::int` }).from(eventDates).innerJoin(events, eq(events.id, eventDates.eventId)).where(cond);
    total = c?.n ?? 0;
  }
  const now = ctx.clock.now();
  const [booked, closed] = await Promise.all([
    eventDateSeatsBooked(ctx.db, rows.map((r) => r.date.id), now),
    closedEventDates(ctx, ctx.db, rows.map((r) => ({ museumId: r.event.museumId, eventId: r.event.id, startAt: r.date.startAt, duration: r.date.duration }))),
  ]);
  return pageOf(
    rows.map((r, i) =>
      eventDateView(ctx.principal, r.date, r.event, L, { zone: r.zone, booked: booked.get(r.date.id) ?? 0, language: r.language, category: r.category, now, closed: closed[i]! }),
    ),
    total,
    pg,
  );
}
