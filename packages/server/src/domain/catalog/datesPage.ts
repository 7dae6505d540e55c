// Shared by GET /events/:id/dates and GET /dates: the date range rules and one page of dates
// with their seats (booked counts come from the capacity module, the only definition of usage)
// and whether the sellability rule closes them (schedules/eventDates.ts).
import { and, gte, lt, sql, type SQL } from 'drizzle-orm';
import { categories, eventDates, events, instance, languages, museums } from '../../db/schema/index.ts';
import { eventDateSeatsBookedSql } from '../capacity/index.ts';
import { closedIn } from '../schedules/eventDates.ts';
import { scheduleFrom, scheduleSql, schedulesOf, type Schedule, type ScheduleJson } from '../schedules/schedule.ts';
import { masterData, type Ctx } from '../context.ts';
import { invalid } from '../errors.ts';
import { addDays, daysBetween, isValidDate, localDateOf, startOfLocalDay } from '../time.ts';
import { pageOf, type LocaleMode, type Page, type Paging } from './internal.ts';
import { fixedStatement, keyOfSql, pick, prefixedColumnsOf, renderOnce, rowsOf } from './pageQuery.ts';
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

// The statements' fixed parts are rendered to text once (pageQuery.ts renderOnce). A date's
// columns come without the audit timestamps, which no view of a date shows: 4 of the 5 timestamps of a row,
// the costliest values to parse (views.ts#Shown).
const D = prefixedColumnsOf(eventDates, 'd.', AUDIT_COLUMNS);
const E = prefixedColumnsOf(events, 'e.', AUDIT_COLUMNS);
/** A date's columns (`dateRowOf`), for every statement here. */
const rowColumns = () => sql`${D.sql}, ${E.sql}, ${museums.timeZone} as "zone", ${languages.id} as "languageId", ${languages.name} as "languageName",
  ${categories.id} as "categoryId", ${categories.name} as "categoryName"`;
/** From a date (`event_dates` joined by id) to what its row shows. */
const rowJoins = () => sql`inner join ${events} on ${events.id} = ${eventDates.eventId}
  inner join ${museums} on ${museums.id} = ${events.museumId}
  left join ${languages} on ${languages.id} = ${eventDates.languageId}
  left join ${categories} on ${categories.id} = ${events.categoryId}`;
/** One date of a page with everything its view needs but its seats (read live, apart). */
interface DateRow {
  date: Shown<typeof eventDates>;
  event: Shown<typeof events>;
  zone: string;
  language: { id: number; name: string } | null;
  category: { id: number; name: string } | null;
}

/** The shapes Drizzle's select gave (a left-joined record is null when absent). */
function dateRowOf(r: Record<string, unknown>): DateRow {
  return {
    date: pick<Shown<typeof eventDates>>(r, D.keys),
    event: pick<Shown<typeof events>>(r, E.keys),
    zone: r.zone as string,
    language: r.languageId === null ? null : { id: r.languageId as number, name: r.languageName as string },
    category: r.categoryId === null ? null : { id: r.categoryId as number, name: r.categoryName as string },
  };
}

export async function datesPage(ctx: Ctx, where: SQL | undefined, range: { from: Date; to: Date }, pg: Paging, L: LocaleMode): Promise<Page<View>> {
  const cond = datesCond(where, range);
  const now = ctx.clock.now();
  const page = (ctx.masterData?.keeping && (await fromKeptIds(ctx, cond, pg, now))) || (await inOneStatement(ctx, cond, pg, now, 0)).page;
  const { rows, booked, total } = page;
  const scheds = page.scheds ?? (await schedulesOf(ctx, ctx.db, rows.map((r) => r.event.museumId)));
  const closed = closedIn(scheds, rows.map((r) => ({ museumId: r.event.museumId, eventId: r.event.id, startAt: r.date.startAt, duration: r.date.duration })));
  return pageOf(
    rows.map((r, i) =>
      eventDateView(ctx.principal, r.date, r.event, L, { zone: r.zone, booked: booked[i]!, language: r.language, category: r.category, now, closed: closed[i]! }),
    ),
    total,
    pg,
  );
}

interface DatesOfPage {
  rows: DateRow[];
  /** Each row's booked seats. */
  booked: number[];
  total: number;
  /** The page's museums' schedules when the statement read them (no master-data memo). */
  scheds?: ReadonlyMap<number, Schedule>;
}

/** A page's rows and seats from a statement's rows (a row of nulls, for an empty page, is none). */
function pageRowsOf(raw: Array<Record<string, unknown>>): { rows: DateRow[]; booked: number[] } {
  const found = raw.filter((r) => r['d.id'] !== null);
  return { rows: found.map(dateRowOf), booked: found.map((r) => r.booked as number) };
}

/**
 * The page, its total, each date's booked seats and (without the master-data memo) the museums'
 * schedules in ONE named prepared statement (pageQuery.ts, ADR 0030): one round trip, planned
 * once per connection, rows without Drizzle's select builder and row mapping. With them come the
 * ids of the first `keep` dates and the catalogue version, all from one snapshot: what a
 * condition keeps on a miss (`fromKeptIds`; `keep` 0 reads none).
 *
 * The page's ids and the total come from one aggregate over the matching dates' ids: their
 * count, and the ids sorted, of which the page is a slice. The dates of the range come from the
 * covering index of migration 0027 (start_at, with event_id and id, active dates only) without
 * reading the table. A window (`count(*) over ()` with ORDER BY … LIMIT) gave the same ids and
 * total at three times the CPU in PostgreSQL: it kept every matching row and then sorted them for
 * the top 25 (700 dates: 0.75 → 0.25 ms per execution; ADR 0030). Only the page's 25 dates are
 * joined back for their columns, in a lateral join, so a page past the end is still one row (of
 * nulls) with the total. The kept ids ride on the first row only.
 *
 * Seats are the capacity module's own count (`eventDateSeatsBookedSql`, the sub-select form of
 * `eventDateSeatsBooked`), run for the page's rows only. A museum's schedule is the schedule
 * module's own json (`scheduleSql`), read on the first row of each museum of the page; with the
 * memo (src/cache/masterData.ts) it comes from there instead, once per catalogue change.
 */
async function inOneStatement(ctx: Ctx, cond: SQL, pg: Paging, now: Date, keep: number): Promise<{ page: DatesOfPage; kept: Kept }> {
  const embed = ctx.masterData === undefined;
  const raw = await rowsOf<Record<string, unknown>>(
    ctx.db,
    sql`${one.head()}${keep}::int${one.from()}${cond}${one.lateral()}, ${eventDateSeatsBookedSql(eventDates.id, now)} as "booked"${embed ? one.schedule() : sql``}
      from unnest("all"."ids"[${pg.offset}::int + 1 : ${pg.offset}::int + ${pg.perPage}::int]) with ordinality as "s"("id", "n")
      ${one.joins()}`,
  );
  const first = raw[0]!;
  const kept: Kept = { total: first.total as number, ids: first.ids as number[], version: first.version as number, rows: [], events: new Map() };
  const { rows, booked } = pageRowsOf(raw);
  keepRows(kept, pg.offset, rows);
  const page: DatesOfPage = { rows, booked, total: kept.total };
  if (embed) {
    const scheds = new Map<number, Schedule>();
    for (const r of raw) if (r.schedule) scheds.set(r['e.museumId'] as number, scheduleFrom(r['e.museumId'] as number, r.schedule as ScheduleJson));
    page.scheds = scheds;
  }
  return { page, kept };
}

const one = {
  head: renderOnce(() => sql`select "all"."total", "all"."version", case when "p"."n" is null or "p"."n" = 1 then "all"."ids"[1:`),
  from: renderOnce(
    () => sql`] end as "ids", "p".*
      from (select count(*)::int as "total", coalesce(array_agg(${eventDates.id} order by ${eventDates.id}), '{}') as "ids",
        (select ${instance.catalogVersion} from ${instance} where ${instance.id} = 1) as "version"
      from ${eventDates} inner join ${events} on ${events.id} = ${eventDates.eventId} where `,
  ),
  lateral: renderOnce(() => sql`) as "all" left join lateral (select ${rowColumns()}, "s"."n"`),
  schedule: renderOnce(
    () => sql`, case when row_number() over (partition by ${events.museumId} order by ${eventDates.id}) = 1 then ${scheduleSql(events.museumId)} end as "schedule"`,
  ),
  joins: renderOnce(() => sql`inner join ${eventDates} on ${eventDates.id} = "s"."id" ${rowJoins()}) as "p" on true order by "p"."n"`),
};

/**
 * What a condition selects, at one catalogue version: how many dates, the ids (sorted) of the
 * first KEPT of them, and the rows (without seats) of the pages read so far, `rows[i]` the row of
 * `ids[i]`. Rows are added as pages are read, each from a statement of this same version; rows of
 * one event share its record (`events`).
 */
interface Kept {
  total: number;
  ids: number[];
  version: number;
  rows: Array<DateRow | undefined>;
  events: Map<number, DateRow['event']>;
}

/**
 * A condition keeps its first this many dates: a miss reads at most this many ids, and an entry
 * holds at most this many rows. A page past them is read the one-statement way.
 */
const KEPT = 2_000;

/**
 * The page from what its condition selects, kept in the master-data memo (issue #19,
 * docs/adr/0038-event-date-pages-kept.md). Counting and sorting every date of the range was most
 * of PostgreSQL's time for a page (600 dates: the aggregate, ≈ 0.4 of 0.7 ms), and reading and
 * parsing 25 wide rows a large part of the server's; yet which dates a condition selects, and
 * their rows, change only with the catalogue. Seats change with every booking: they are read live
 * on every request, for the page's dates only.
 *
 * The memo is cleared by every catalogue change (NOTIFY), like every cache here. This does not
 * rest on that alone: the page's statement also reads the catalogue version in its own snapshot,
 * and if it is not the one the kept dates were read at (a change committed whose notice has not
 * arrived), the page is read the one-statement way instead. Every change to the tables the
 * condition and the rows read (event dates, events, museums, languages, categories) bumps that
 * version in its own transaction (src/db/sql/atrium_bump_catalog_version.sql).
 */
async function fromKeptIds(ctx: Ctx, cond: SQL, pg: Paging, now: Date): Promise<DatesOfPage | undefined> {
  // A miss is the one-statement read, which also gives what the condition keeps.
  let read: DatesOfPage | undefined;
  const load = async () => {
    const miss = await inOneStatement(ctx, cond, pg, now, KEPT);
    read = miss.page;
    return miss.kept;
  };
  const kept = await masterData(ctx, `datePages|${keyOfSql(cond)}`, load, (k) => 208 * k.ids.length);
  if (read) return read;
  const { total } = kept;
  const end = Math.min(pg.offset + pg.perPage, total);
  if (end > kept.ids.length) return undefined;
  const slice = kept.ids.slice(pg.offset, end);
  let all = true;
  for (let i = pg.offset; i < end && all; i++) all = kept.rows[i] !== undefined;
  if (all) {
    const [r] = await seatsOfPage(ctx.db, { ids: slice, now });
    if (r?.version !== kept.version) return undefined;
    return { rows: kept.rows.slice(pg.offset, end) as DateRow[], booked: r.booked, total };
  }
  const raw = await rowsOfPage(ctx.db, { ids: slice, now });
  if (raw[0]?.version !== kept.version) return undefined;
  const { rows, booked } = pageRowsOf(raw);
  // Every kept id is a row of this same version (ids of deleted dates would have changed it).
  if (rows.length !== slice.length) return undefined;
  keepRows(kept, pg.offset, rows);
  return { rows, booked, total };
}

/** Rows of a page (from `offset`) into what a condition keeps, within its first KEPT dates. */
function keepRows(kept: Kept, offset: number, rows: DateRow[]): void {
  for (const [i, row] of rows.entries()) {
    if (offset + i >= kept.ids.length) break;
    // One record per event (views only read it), not one per date.
    const shared = kept.events.get(row.event.id);
    if (shared) row.event = shared;
    else kept.events.set(row.event.id, row.event);
    kept.rows[offset + i] = row;
  }
}

/** The seats of the page's dates, in the page's order, and the catalogue version. */
const seatsOfPage = fixedStatement<{ version: number; booked: number[] }>(
  (v) => sql`select ${instance.catalogVersion} as "version",
      array(select ${eventDateSeatsBookedSql(sql`"s"."id"`, v('now'))} from unnest(${v('ids')}::int[]) with ordinality as "s"("id", "n") order by "s"."n") as "booked"
    from ${instance} where ${instance.id} = 1`,
);

/**
 * The page's rows by id with their seats, and the catalogue version of the statement's snapshot on
 * each (one row of nulls but the version when the page is empty).
 */
const rowsOfPage = fixedStatement<Record<string, unknown>>(
  (v) => sql`select ${instance.catalogVersion} as "version", "p".* from ${instance} left join lateral (select ${rowColumns()},
      ${eventDateSeatsBookedSql(eventDates.id, v('now'))} as "booked", "s"."n"
      from unnest(${v('ids')}::int[]) with ordinality as "s"("id", "n")
      inner join ${eventDates} on ${eventDates.id} = "s"."id" ${rowJoins()}) as "p" on true
    where ${instance.id} = 1 order by "p"."n"`,
);
