// A page of event dates with their seats, in one statement or from what its condition keeps in
// the master-data memo (docs/adr/0022-catalogue-read-path.md,
// docs/adr/0022-catalogue-read-path.md). The domain (domain/catalog/datesPage.ts) makes views
// of the rows and applies the sellability rule.
import { sql, type SQL } from 'drizzle-orm';
import { eventDates, events, instance } from '../../schema/index.ts';
import { eventDateSeatsBookedSql } from '../capacityUsed.ts';
import { scheduleSql, type ScheduleJson } from '../schedules/schedule.ts';
import { datesCond, datesWhere, pageRowsOf, rowColumns, rowJoins, rowsOfPage, seatsOfPage, type DateRange, type DateRow, type DatesFilter } from './dateStatements.ts';
import type { PageSource } from './pages.ts';
import type { PageWindow } from './pages.ts';
import { keyOfSql, renderOnce, rowsOf } from './statements.ts';

export interface DatesOfPage {
  rows: DateRow[];
  /** Each row's booked seats. */
  booked: number[];
  total: number;
  /** The page's museums' schedule json when the statement read them (no master-data memo). */
  schedules?: ReadonlyMap<number, ScheduleJson>;
}

/**
 * A page of the dates `filter` selects in `range`: from what the condition keeps while the
 * master-data memo keeps values, else in one statement. Seats are read live, as of `now`.
 */
export async function readDatesPage(src: PageSource, filter: DatesFilter, range: DateRange, w: PageWindow, now: Date): Promise<DatesOfPage> {
  const cond = datesCond(datesWhere(filter), range);
  return (src.masterData?.keeping && (await fromKeptIds(src, cond, w, now))) || (await inOneStatement(src, cond, w, now, 0)).page;
}

/**
 * The page, its total, each date's booked seats and (without the master-data memo) the museums'
 * schedules in ONE named prepared statement (statements.ts): one round trip, planned once per
 * connection, rows without Drizzle's select builder and row mapping. With them come the
 * ids of the first `keep` dates and the catalogue version, all from one snapshot: what a
 * condition keeps on a miss (`fromKeptIds`; `keep` 0 reads none).
 *
 * The page's ids and the total come from one aggregate over the matching dates' ids: their
 * count, and the ids sorted, of which the page is a slice. The dates of the range come from the
 * covering index of migration 0027 (start_at, with event_id and id, active dates only) without
 * reading the table. A window (`count(*) over ()` with ORDER BY … LIMIT) gave the same ids and
 * total at a multiple of the CPU in PostgreSQL: it kept every matching row and then sorted them
 * for the top 25. Only the page's 25 dates are joined back for their columns, in a lateral join,
 * so a page past the end is still one row (of nulls) with the total. The kept ids ride on the first row only.
 *
 * Seats are the capacity module's own count (`eventDateSeatsBookedSql`, the sub-select form of
 * `eventDateSeatsBooked`), run for the page's rows only. A museum's schedule is the schedule
 * module's own json (`scheduleSql`), read on the first row of each museum of the page; with the
 * memo (src/cache/masterData.ts) the domain reads it from there instead, once per catalogue change.
 */
async function inOneStatement(src: PageSource, cond: SQL, w: PageWindow, now: Date, keep: number): Promise<{ page: DatesOfPage; kept: Kept }> {
  const embed = src.masterData === undefined;
  const raw = await rowsOf<Record<string, unknown>>(
    src.db,
    sql`${one.head()}${keep}::int${one.from()}${cond}${one.lateral()}, ${eventDateSeatsBookedSql(eventDates.id, now)} as "booked"${embed ? one.schedule() : sql``}
      from unnest("all"."ids"[${w.offset}::int + 1 : ${w.offset}::int + ${w.limit}::int]) with ordinality as "s"("id", "n")
      ${one.joins()}`,
  );
  const first = raw[0]!;
  const kept: Kept = { total: first.total as number, ids: first.ids as number[], version: first.version as number, rows: [], events: new Map() };
  const { rows, booked } = pageRowsOf(raw);
  keepRows(kept, w.offset, rows);
  const page: DatesOfPage = { rows, booked, total: kept.total };
  if (embed) {
    const schedules = new Map<number, ScheduleJson>();
    for (const r of raw) if (r.schedule) schedules.set(r['e.museumId'] as number, r.schedule as ScheduleJson);
    page.schedules = schedules;
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
 * The page from what its condition selects, kept in the master-data memo
 * (docs/adr/0022-catalogue-read-path.md). Counting and sorting every date of the range was most
 * of PostgreSQL's time for a page, and reading and parsing 25 wide rows a large part of the
 * server's; yet which dates a condition selects, and
 * their rows, change only with the catalogue. Seats change with every booking: they are read live
 * on every request, for the page's dates only.
 *
 * The memo is cleared by every catalogue change (NOTIFY), like every cache here. This does not
 * rest on that alone: the page's statement also reads the catalogue version in its own snapshot,
 * and if it is not the one the kept dates were read at (a change committed whose notice has not
 * arrived), the page is read the one-statement way instead. Every change to the tables the
 * condition and the rows read (event dates, events, museums, languages, categories) bumps that
 * version in its own transaction (atrium_bump_catalog_version,
 * src/db/sql/atrium_bump_catalog_version.sql).
 */
async function fromKeptIds(src: PageSource, cond: SQL, w: PageWindow, now: Date): Promise<DatesOfPage | undefined> {
  // A miss is the one-statement read, which also gives what the condition keeps.
  let read: DatesOfPage | undefined;
  const load = async () => {
    const miss = await inOneStatement(src, cond, w, now, KEPT);
    read = miss.page;
    return miss.kept;
  };
  const key = `datePages|${keyOfSql(cond)}`;
  const kept = src.masterData ? await src.masterData.memo(key, load, (k) => 208 * k.ids.length) : await load();
  if (read) return read;
  const { total } = kept;
  const end = Math.min(w.offset + w.limit, total);
  if (end > kept.ids.length) return undefined;
  const slice = kept.ids.slice(w.offset, end);
  let all = true;
  for (let i = w.offset; i < end && all; i++) all = kept.rows[i] !== undefined;
  if (all) {
    const [r] = await seatsOfPage(src.db, { ids: slice, now });
    if (r?.version !== kept.version) return undefined;
    return { rows: kept.rows.slice(w.offset, end) as DateRow[], booked: r.booked, total };
  }
  const raw = await rowsOfPage(src.db, { ids: slice, now });
  if (raw[0]?.version !== kept.version) return undefined;
  const { rows, booked } = pageRowsOf(raw);
  // Every kept id is a row of this same version (ids of deleted dates would have changed it).
  if (rows.length !== slice.length) return undefined;
  keepRows(kept, w.offset, rows);
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

