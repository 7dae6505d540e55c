// The statements of a page of event dates (GET /dates, /events/:id/dates, /dates/languages):
// the WHERE of a dates filter, a date's columns and joins, and the fixed statements that read a
// kept page's seats or rows (datesPages.ts reads the pages).
import { and, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../client.ts';
import { categories, eventDates, events, instance, languages, museums } from '../../schema/index.ts';
import { eventDateSeatsBookedSql } from '../capacityUsed.ts';
import { categoryFilter, dateLanguageFilter, titleMatches, type CategoryFilter } from './filters.ts';
import { inIds } from './shapes.ts';
import { fixedStatement, pick, prefixedColumnsOf, rowsOf } from './statements.ts';
import { visibleSql, type Viewer } from './visibility.ts';
import type { LanguageRef } from './related.ts';

/** Columns no view shows: a page may leave them unread. */
export const AUDIT_COLUMNS = ['createdAt', 'updatedAt'] as const;
/** A row as a view reads it: without `AUDIT_COLUMNS`. */
export type Shown<T extends { $inferSelect: object }> = Omit<T['$inferSelect'], (typeof AUDIT_COLUMNS)[number]>;

/** Which dates: GET /dates's filters (also /dates/languages and /calendar), or one event's. */
export type DatesFilter =
  | ({
      of: 'list';
      viewer: Viewer;
      eventIds?: readonly number[] | undefined;
      museumIds?: readonly number[] | undefined;
      languageIds?: readonly number[] | undefined;
      q?: string | undefined;
    } & CategoryFilter)
  | { of: 'event'; eventId: number; languageIds?: readonly number[] | undefined };

/** The filter's condition, before the range (`datesCond`). */
export function datesWhere(f: DatesFilter): SQL | undefined {
  if (f.of === 'event') return and(eq(eventDates.eventId, f.eventId), dateLanguageFilter(f.languageIds));
  return and(
    visibleSql(f.viewer, events),
    // One array parameter whatever the number of ids, so the statement's text (and its prepared
    // name) does not change with the length of the list (shapes.ts#inIds).
    f.eventIds?.length ? inIds(eventDates.eventId, f.eventIds) : undefined,
    f.museumIds?.length ? inIds(events.museumId, f.museumIds) : undefined,
    categoryFilter(events.categoryId, f, 'event'),
    dateLanguageFilter(f.languageIds),
    titleMatches(events.title, f.q),
  );
}

/** A range of instants: [from, to). */
export interface DateRange {
  from: Date;
  to: Date;
}

/**
 * The dates a list shows: `where`, active, starting inside the range (also GET /dates/languages).
 * `active` is tested as the column itself, not `= $n`, so the partial index of migration 0027
 * (`where active`) answers it.
 */
export function datesCond(where: SQL | undefined, range: DateRange): SQL {
  return and(where, sql`${eventDates.active}`, gte(eventDates.startAt, range.from), lt(eventDates.startAt, range.to))!;
}

// The statements' fixed parts are rendered to text once (statements.ts renderOnce). A date's
// columns come without the audit timestamps, which no view of a date shows: most of the
// timestamps of a row, the costliest values to parse (`Shown`).
const D = prefixedColumnsOf(eventDates, 'd.', AUDIT_COLUMNS);
const E = prefixedColumnsOf(events, 'e.', AUDIT_COLUMNS);
/** A date's columns (`dateRowOf`), for every statement here. */
export const rowColumns = () => sql`${D.sql}, ${E.sql}, ${museums.timeZone} as "zone", ${languages.id} as "languageId", ${languages.name} as "languageName",
  ${categories.id} as "categoryId", ${categories.name} as "categoryName"`;
/** From a date (`event_dates` joined by id) to what its row shows. */
export const rowJoins = () => sql`inner join ${events} on ${events.id} = ${eventDates.eventId}
  inner join ${museums} on ${museums.id} = ${events.museumId}
  left join ${languages} on ${languages.id} = ${eventDates.languageId}
  left join ${categories} on ${categories.id} = ${events.categoryId}`;
/** One date of a page with everything its view needs but its seats (read live, apart). */
export interface DateRow {
  date: Shown<typeof eventDates>;
  event: Shown<typeof events>;
  zone: string;
  language: { id: number; name: string } | null;
  category: { id: number; name: string } | null;
}

/** The shapes Drizzle's select gave (a left-joined record is null when absent). */
export function dateRowOf(r: Record<string, unknown>): DateRow {
  return {
    date: pick<Shown<typeof eventDates>>(r, D.keys),
    event: pick<Shown<typeof events>>(r, E.keys),
    zone: r.zone as string,
    language: r.languageId === null ? null : { id: r.languageId as number, name: r.languageName as string },
    category: r.categoryId === null ? null : { id: r.categoryId as number, name: r.categoryName as string },
  };
}

/** A page's rows and seats from a statement's rows (a row of nulls, for an empty page, is none). */
export function pageRowsOf(raw: Array<Record<string, unknown>>): { rows: DateRow[]; booked: number[] } {
  const found = raw.filter((r) => r['d.id'] !== null);
  return { rows: found.map(dateRowOf), booked: found.map((r) => r.booked as number) };
}

/** The seats of the page's dates, in the page's order, and the catalogue version. */
export const seatsOfPage = fixedStatement<{ version: number; booked: number[] }>(
  (v) => sql`select ${instance.catalogVersion} as "version",
      array(select ${eventDateSeatsBookedSql(sql`"s"."id"`, v('now'))} from unnest(${v('ids')}::int[]) with ordinality as "s"("id", "n") order by "s"."n") as "booked"
    from ${instance} where ${instance.id} = 1`,
);

/**
 * The page's rows by id with their seats, and the catalogue version of the statement's snapshot on
 * each (one row of nulls but the version when the page is empty).
 */
export const rowsOfPage = fixedStatement<Record<string, unknown>>(
  (v) => sql`select ${instance.catalogVersion} as "version", "p".* from ${instance} left join lateral (select ${rowColumns()},
      ${eventDateSeatsBookedSql(eventDates.id, v('now'))} as "booked", "s"."n"
      from unnest(${v('ids')}::int[]) with ordinality as "s"("id", "n")
      inner join ${eventDates} on ${eventDates.id} = "s"."id" ${rowJoins()}) as "p" on true
    where ${instance.id} = 1 order by "p"."n"`,
);

/**
 * The languages of the dates a filter selects in a range, by id, in one named prepared statement.
 * The dates of the range come from the covering index of migration 0027, as GET /dates's.
 */
export function languagesOfDates(db: DbOrTx, f: DatesFilter, range: DateRange): Promise<LanguageRef[]> {
  return rowsOf<LanguageRef>(
    db,
    sql`select ${languages.id} as "id", ${languages.name} as "name" from ${languages}
      where ${languages.id} in (select ${eventDates.languageId} from ${eventDates} inner join ${events} on ${events.id} = ${eventDates.eventId}
        where ${datesCond(datesWhere(f), range)})
      order by ${languages.id}`,
  );
}
