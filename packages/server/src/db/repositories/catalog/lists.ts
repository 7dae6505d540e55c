// The page queries of the catalogue lists (GET /tickets, /events, /tours, /museums,
// /exhibitions): each WHERE is built from a typed filter with its values bound by name, under a
// shape key naming everything its text depends on (the caller's kind and scope, which filters
// are given), so it is rendered once per shape (shapes.ts#shaped). One statement gives the page,
// the total and each row's related data (pages.ts).
import { and, eq, isNull, lte, gte, or, sql, not, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../client.ts';
import { events, exhibitions, museums, tickets, tours } from '../../schema/index.ts';
import { categoryFilter, categoryNameSql, eventLanguageFilter, titleMatches, titleShape, tourLanguageFilter, type CategoryFilter } from './filters.ts';
import type { PageQuery, PageWindow } from './pages.ts';
import { eventLanguagesSql, museumLocationSql, quotaIdsByPage, quotaIdsSql, tourLanguagesSql, type LanguageRef } from './related.ts';
import { bound, given, inIds, shaped } from './shapes.ts';
import { inScopeSql, visibleShape, visibleSql, type Viewer } from './visibility.ts';

export type TicketRow = typeof tickets.$inferSelect & { quotaIds: number[] };
export type EventRow = typeof events.$inferSelect & { languages: LanguageRef[]; categoryName: string | null; museumLocation: Record<string, unknown> | null };
export type TourRow = typeof tours.$inferSelect & { languages: LanguageRef[]; categoryName: string | null; museumLocation: Record<string, unknown> | null };
export type MuseumRow = typeof museums.$inferSelect;
export type ExhibitionRow = typeof exhibitions.$inferSelect;

export interface TicketFilter {
  viewer: Viewer;
  /** Tickets valid on this day (YYYY-MM-DD). */
  validAt: string;
  museumIds?: readonly number[] | undefined;
  ticketIds?: readonly number[] | undefined;
  exhibitionIds?: readonly number[] | undefined;
  ticketType?: string | undefined;
  /** true: only tickets without time slots (day tickets); false: only time-slot tickets. */
  freeTiming?: boolean | undefined;
  /** true: the visibility rule again; false: its negation. */
  bookable?: boolean | undefined;
  q?: string | undefined;
}

export function ticketsPageQuery(db: DbOrTx, f: TicketFilter, w: PageWindow): PageQuery<TicketRow> {
  // The texts of `bookable` and `freeTiming` depend on their values (a rule or its negation).
  const filters = given(f.museumIds, f.ticketIds, f.exhibitionIds, f.ticketType || undefined);
  const key = `tickets|${visibleShape(f.viewer)}|${filters}|${f.bookable}|${f.freeTiming}|${titleShape(f.q)}`;
  const { where, shape } = shaped(db, key, () => ticketsWhere(f));
  return {
    spec: {
      table: tickets,
      where,
      extra: sql`${quotaIdsSql(tickets.id)} as "quotaIds"`,
      countApart: !f.q,
      order: sql`${tickets.id}`,
      limit: w.limit,
      offset: w.offset,
      shape,
    },
    extraKeys: ['quotaIds'],
    groupedExtra: quotaIdsByPage,
  };
}

function ticketsWhere(f: TicketFilter): SQL | undefined {
  const visible = visibleSql(f.viewer, tickets);
  const at = bound(f.validAt);
  return and(
    visible,
    or(isNull(tickets.validFrom), lte(tickets.validFrom, at)),
    or(isNull(tickets.validUntil), gte(tickets.validUntil, at)),
    f.museumIds?.length ? inIds(tickets.museumId, f.museumIds) : undefined,
    f.ticketIds?.length ? inIds(tickets.id, f.ticketIds) : undefined,
    f.exhibitionIds?.length ? sql`${tickets.exhibitionIds} && ${bound(f.exhibitionIds)}::int[]` : undefined,
    f.ticketType ? eq(tickets.ticketType, bound(f.ticketType)) : undefined,
    // A ticket without time slots is a day ticket; the schema ties the slot length to the type.
    f.freeTiming === undefined ? undefined : f.freeTiming ? sql`${tickets.ticketType} <> 'time_slot'` : sql`${tickets.ticketType} = 'time_slot'`,
    // Every listed ticket is visible and valid that day, which is what bookable means for the
    // caller (domain/catalog/views.ts); so `bookable=false` lists nothing. Kept as SQL so a
    // later, narrower notion of bookable only has to change here and in the views.
    f.bookable === undefined ? undefined : f.bookable ? visible : not(visible),
    titleMatches(tickets.title, f.q),
  );
}

/** The filters of GET /events and GET /tours. */
export interface ProductFilter extends CategoryFilter {
  viewer: Viewer;
  museumIds?: readonly number[] | undefined;
  exhibitionIds?: readonly number[] | undefined;
  featured?: boolean | undefined;
  languageIds?: readonly number[] | undefined;
  q?: string | undefined;
}

function productFilters(f: ProductFilter): string {
  return given(f.museumIds, f.exhibitionIds, f.featured, f.categoryIds, f.categoryNames, f.languageIds);
}

export function eventsPageQuery(db: DbOrTx, f: ProductFilter, w: PageWindow): PageQuery<EventRow> {
  const { where, shape } = shaped(db, `events|${visibleShape(f.viewer)}|${productFilters(f)}|${titleShape(f.q)}`, () =>
    and(
      visibleSql(f.viewer, events),
      f.museumIds?.length ? inIds(events.museumId, f.museumIds) : undefined,
      f.exhibitionIds?.length ? inIds(events.exhibitionId, f.exhibitionIds) : undefined,
      f.featured === undefined ? undefined : eq(events.featured, bound(f.featured)),
      categoryFilter(events.categoryId, f, 'event'),
      eventLanguageFilter(f.languageIds),
      titleMatches(events.title, f.q),
    ),
  );
  return {
    spec: {
      table: events,
      where,
      // The museum's address is data outside the row: as an extra it is part of the row's
      // fragment key, so a changed address is never answered from an old fragment.
      extra: sql`${eventLanguagesSql(events.id)} as "languages", ${categoryNameSql(sql`${events}."categoryId"`)} as "categoryName", ${museumLocationSql(sql`${events}."museumId"`)} as "museumLocation"`,
      narrow: sql`${events.categoryId} as "categoryId", ${events.museumId} as "museumId"`,
      countApart: !f.q,
      order: sql`${events.id}`,
      limit: w.limit,
      offset: w.offset,
      shape,
    },
    extraKeys: ['languages', 'categoryName', 'museumLocation'],
  };
}

export function toursPageQuery(db: DbOrTx, f: ProductFilter, w: PageWindow): PageQuery<TourRow> {
  const { where, shape } = shaped(db, `tours|${visibleShape(f.viewer)}|${productFilters(f)}|${titleShape(f.q)}`, () =>
    and(
      visibleSql(f.viewer, tours),
      f.museumIds?.length ? inIds(tours.museumId, f.museumIds) : undefined,
      f.exhibitionIds?.length ? inIds(tours.exhibitionId, f.exhibitionIds) : undefined,
      f.featured === undefined ? undefined : eq(tours.featured, bound(f.featured)),
      categoryFilter(tours.categoryId, f, 'tour'),
      tourLanguageFilter(f.languageIds),
      titleMatches(tours.title, f.q),
    ),
  );
  return {
    spec: {
      table: tours,
      where,
      // The museum's address as an extra, as for events: part of the row's fragment key.
      extra: sql`${tourLanguagesSql(tours.id)} as "languages", ${categoryNameSql(sql`${tours}."categoryId"`)} as "categoryName", ${museumLocationSql(sql`${tours}."museumId"`)} as "museumLocation"`,
      narrow: sql`${tours.categoryId} as "categoryId", ${tours.museumId} as "museumId"`,
      countApart: !f.q,
      order: sql`${tours.id}`,
      limit: w.limit,
      offset: w.offset,
      shape,
    },
    extraKeys: ['languages', 'categoryName', 'museumLocation'],
  };
}

/** Museums inside the viewer's scope (museums have no sales channels). */
export function museumsPageQuery(db: DbOrTx, f: { viewer: Viewer; q?: string | undefined }, w: PageWindow): PageQuery<MuseumRow> {
  const { where, shape } = shaped(db, `museums|${visibleShape(f.viewer)}|${titleShape(f.q)}`, () =>
    and(inScopeSql(f.viewer, museums.id), titleMatches(museums.title, f.q)),
  );
  return {
    spec: { table: museums, where, countApart: !f.q, order: sql`${museums.id}`, limit: w.limit, offset: w.offset, shape },
    extraKeys: [],
  };
}

export interface ExhibitionFilter {
  viewer: Viewer;
  museumIds?: readonly number[] | undefined;
  featured?: boolean | undefined;
  q?: string | undefined;
}

export function exhibitionsPageQuery(db: DbOrTx, f: ExhibitionFilter, w: PageWindow): PageQuery<ExhibitionRow> {
  const filters = given(f.museumIds, f.featured);
  const { where, shape } = shaped(db, `exhibitions|${visibleShape(f.viewer)}|${filters}|${titleShape(f.q)}`, () =>
    and(
      inScopeSql(f.viewer, exhibitions.museumId),
      f.museumIds?.length ? inIds(exhibitions.museumId, f.museumIds) : undefined,
      f.featured === undefined ? undefined : eq(exhibitions.featured, bound(f.featured)),
      titleMatches(exhibitions.title, f.q),
    ),
  );
  return {
    spec: { table: exhibitions, where, countApart: !f.q, order: sql`${exhibitions.id}`, limit: w.limit, offset: w.offset, shape },
    extraKeys: [],
  };
}
