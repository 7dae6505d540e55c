// Shared by GET /events/:id/dates and GET /dates: the date range rules and one page of dates
// with their seats (booked counts come from the capacity module, the only definition of usage)
// and whether the sellability rule closes them (schedules/eventDates.ts).
import { and, gte, lt, sql, type SQL } from 'drizzle-orm';
import { categories, eventDates, events, languages, museums } from '../../db/schema/index.ts';
import { eventDateSeatsBookedSql } from '../capacity/index.ts';
import { closedIn } from '../schedules/eventDates.ts';
import { scheduleFrom, scheduleSql, schedulesOf, type Schedule, type ScheduleJson } from '../schedules/schedule.ts';
import type { Ctx } from '../context.ts';
import { invalid } from '../errors.ts';
import { addDays, daysBetween, isValidDate, localDateOf, startOfLocalDay } from '../time.ts';
import { pageOf, type LocaleMode, type Page, type Paging } from './internal.ts';
import { pick, prefixedColumnsOf, renderOnce, rowsOf } from './pageQuery.ts';
import { AUDIT_COLUMNS, eventDateView, type Shown, type View } from './views.ts';

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

/**
 * The dates a list shows: `where`, active, starting inside the range (also GET /dates/languages).
 * `active` is tested as the column itself, not `= $n`, so the partial index of migration 0027
 * (`where active`) answers it.
 */
export function datesCond(where: SQL | undefined, range: { from: Date; to: Date }): SQL {
  return and(where, sql`${eventDates.active}`, gte(eventDates.startAt, range.from), lt(eventDates.startAt, range.to))!;
}

// The statement's fixed parts, rendered to text once (pageQuery.ts renderOnce). Only the WHERE,
// the seats' sub-select (it carries `now`) and the page's bounds are rendered per request.
// Without the audit timestamps, which no view of a date shows: 4 of the 5 timestamps of a row,
// the costliest values to parse (views.ts#Shown).
const D = prefixedColumnsOf(eventDates, 'd.', AUDIT_COLUMNS);
const E = prefixedColumnsOf(events, 'e.', AUDIT_COLUMNS);
const parts = {
  select: renderOnce(
    () => sql`select ${D.sql}, ${E.sql}, ${museums.timeZone} as "zone", ${languages.id} as "languageId", ${languages.name} as "languageName",
      ${categories.id} as "categoryId", ${categories.name} as "categoryName", "page"."total"`,
  ),
  schedule: renderOnce(
    () => sql`, case when row_number() over (partition by ${events.museumId} order by ${eventDates.id}) = 1 then ${scheduleSql(events.museumId)} end as "schedule"`,
  ),
  from: renderOnce(
    () => sql`from (select "slice"."id", "all"."total" from (select array_agg(${eventDates.id} order by ${eventDates.id}) as "ids", count(*) as "total"
        from ${eventDates} inner join ${events} on ${events.id} = ${eventDates.eventId} where `,
  ),
  joins: renderOnce(
    () => sql`inner join ${eventDates} on ${eventDates.id} = "page"."id"
      inner join ${events} on ${events.id} = ${eventDates.eventId}
      inner join ${museums} on ${museums.id} = ${events.museumId}
      left join ${languages} on ${languages.id} = ${eventDates.languageId}
      left join ${categories} on ${categories.id} = ${events.categoryId}
      order by ${eventDates.id}`,
  ),
};

export async function datesPage(ctx: Ctx, where: SQL | undefined, range: { from: Date; to: Date }, pg: Paging, L: LocaleMode): Promise<Page<View>> {
  const cond = datesCond(where, range);
  const now = ctx.clock.now();
  // The page, its total, each date's booked seats and (without the master-data memo) the
  // museums' schedules in ONE named prepared statement (pageQuery.ts, ADR 0030): one round trip,
  // planned once per connection, rows without Drizzle's select builder and row mapping.
  //
  // The page's ids and the total come from one aggregate over the matching dates' ids: their
  // count, and the ids sorted, of which the page is a slice. The dates of the range come from the
  // covering index of migration 0027 (start_at, with event_id and id, active dates only) without
  // reading the table. A window (`count(*) over ()` with ORDER BY … LIMIT) gave the same ids and
  // total at three times the CPU in PostgreSQL: it kept every matching row and then sorted them
  // for the top 25 (700 dates: 0.75 → 0.25 ms per execution; ADR 0030). Only the page's 25 dates
  // are joined back for their columns. A page past the end has no row to carry the total and
  // counts on its own.
  //
  // Seats are the capacity module's own count (`eventDateSeatsBookedSql`, the sub-select form of
  // `eventDateSeatsBooked`), run for the page's rows only. A museum's schedule is the schedule
  // module's own json (`scheduleSql`), read on the first row of each museum of the page; with the
  // memo (src/cache/masterData.ts) it comes from there instead, once per catalogue change.
  const embed = ctx.masterData === undefined;
  const raw = await rowsOf<Record<string, unknown>>(
    ctx.db,
    sql`${parts.select()}, ${eventDateSeatsBookedSql(eventDates.id, now)} as "booked"${embed ? parts.schedule() : sql``}
      ${parts.from()}${cond}) as "all",
        unnest("all"."ids"[${pg.offset}::int + 1 : ${pg.offset}::int + ${pg.perPage}::int]) as "slice"("id")) as "page"
      ${parts.joins()}`,
  );
  // The shapes Drizzle's select gave (a left-joined record is null when absent).
  const rows = raw.map((r) => ({
    date: pick<Shown<typeof eventDates>>(r, D.keys),
    event: pick<Shown<typeof events>>(r, E.keys),
    zone: r.zone as string,
    language: r.languageId === null ? null : { id: r.languageId as number, name: r.languageName as string },
    category: r.categoryId === null ? null : { id: r.categoryId as number, name: r.categoryName as string },
    booked: r.booked as number,
    total: Number(r.total),
  }));
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && pg.offset > 0) {
    const [c] = await rowsOf<{ n: number }>(ctx.db, sql`select count(*)::int as "n" from ${eventDates} inner join ${events} on ${events.id} = ${eventDates.eventId} where ${cond}`);
    total = c?.n ?? 0;
  }
  let scheds: ReadonlyMap<number, Schedule>;
  if (embed) {
    const m = new Map<number, Schedule>();
    for (const r of raw) if (r.schedule) m.set(r['e.museumId'] as number, scheduleFrom(r['e.museumId'] as number, r.schedule as ScheduleJson));
    scheds = m;
  } else {
    scheds = await schedulesOf(ctx, ctx.db, rows.map((r) => r.event.museumId));
  }
  const closed = closedIn(scheds, rows.map((r) => ({ museumId: r.event.museumId, eventId: r.event.id, startAt: r.date.startAt, duration: r.date.duration })));
  return pageOf(
    rows.map((r, i) =>
      eventDateView(ctx.principal, r.date, r.event, L, { zone: r.zone, booked: r.booked, language: r.language, category: r.category, now, closed: closed[i]! }),
    ),
    total,
    pg,
  );
}
