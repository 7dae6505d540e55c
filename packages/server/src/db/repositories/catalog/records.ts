// Single catalogue records by id, each in one statement with what its view shows from other
// tables. Visibility is the domain's rule, applied to what these return (domain/catalog/lookups.ts).
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../client.ts';
import { eventDates, events, exhibitions, languages, museums, tickets, tours } from '../../schema/index.ts';
import { categoryNameSql } from './filters.ts';
import type { EventRow, TicketRow, TourRow } from './lists.ts';
import { eventLanguagesSql, museumLocationSql, quotaIdsSql, tourLanguagesSql, type LanguageRef } from './related.ts';
import { columnsOf, rowsOf } from './statements.ts';

export type Museum = typeof museums.$inferSelect;
export type Exhibition = typeof exhibitions.$inferSelect;
export type Event = typeof events.$inferSelect;
export type EventDate = typeof eventDates.$inferSelect;

export async function museumById(db: DbOrTx, id: number): Promise<Museum | undefined> {
  const [m] = await db.select().from(museums).where(eq(museums.id, id));
  return m;
}

export async function exhibitionById(db: DbOrTx, id: number): Promise<Exhibition | undefined> {
  const [x] = await db.select().from(exhibitions).where(eq(exhibitions.id, id));
  return x;
}

export async function eventById(db: DbOrTx, id: number): Promise<Event | undefined> {
  const [e] = await db.select().from(events).where(eq(events.id, id));
  return e;
}

/** An event and its museum's time zone, in one named prepared statement (GET /events/:id/dates). */
export async function eventInZoneById(db: DbOrTx, id: number): Promise<(Event & { __zone: string }) | undefined> {
  const [r] = await rowsOf<Event & { __zone: string }>(
    db,
    sql`select ${columnsOf(events)}, ${museums.timeZone} as "__zone" from ${events} inner join ${museums} on ${museums.id} = ${events.museumId} where ${events.id} = ${id}`,
  );
  return r;
}

/** An event date with its event and the museum's zone. */
export async function eventDateWithEvent(db: DbOrTx, id: number): Promise<{ date: EventDate; event: Event; zone: string } | undefined> {
  const [row] = await db
    .select({ date: eventDates, event: events, zone: museums.timeZone })
    .from(eventDates)
    .innerJoin(events, eq(events.id, eventDates.eventId))
    .innerJoin(museums, eq(museums.id, events.museumId))
    .where(eq(eventDates.id, id));
  return row;
}

/** A ticket with its quota ids, in one statement. */
export async function ticketWithQuotas(db: DbOrTx, id: number): Promise<TicketRow | undefined> {
  const [t] = await rowsOf<TicketRow>(db, sql`select ${columnsOf(tickets)}, ${quotaIdsSql(tickets.id)} as "quotaIds" from ${tickets} where ${tickets.id} = ${id}`);
  return t;
}

/** An event with its languages and category name, in one statement. */
export async function eventWithRelated(db: DbOrTx, id: number): Promise<EventRow | undefined> {
  const [r] = await rowsOf<EventRow>(
    db,
    sql`select ${columnsOf(events)}, ${eventLanguagesSql(events.id)} as "languages", ${categoryNameSql(events.categoryId)} as "categoryName", ${museumLocationSql(events.museumId)} as "museumLocation" from ${events} where ${events.id} = ${id}`,
  );
  return r;
}

/** A tour with its languages and category name, in one statement. */
export async function tourWithRelated(db: DbOrTx, id: number): Promise<TourRow | undefined> {
  const [r] = await rowsOf<TourRow>(
    db,
    sql`select ${columnsOf(tours)}, ${tourLanguagesSql(tours.id)} as "languages", ${categoryNameSql(tours.categoryId)} as "categoryName", ${museumLocationSql(tours.museumId)} as "museumLocation" from ${tours} where ${tours.id} = ${id}`,
  );
  return r;
}

export async function languageById(db: DbOrTx, id: number): Promise<LanguageRef | undefined> {
  const [l] = await db.select({ id: languages.id, name: languages.name }).from(languages).where(eq(languages.id, id));
  return l;
}
