// The catalogue rows the OCTO endpoint offers besides tickets: events (with their museum's zone)
// and their dates in a time range, tour ids, and the languages a tour option is named by.
import { and, asc, eq, gte, inArray, lt } from 'drizzle-orm';
import type { DbOrTx } from '../client.ts';
import { eventDates, events, languages, museums, tours } from '../schema/index.ts';

export type EventZoneRow = typeof events.$inferSelect & { zone: string };
export type EventDateRowOf = typeof eventDates.$inferSelect;

/** Active events (all, or the one with `id`), in id order, each with its museum's zone. */
export async function findEventsWithZone(db: DbOrTx, id?: number): Promise<EventZoneRow[]> {
  const q = db.select({ event: events, zone: museums.timeZone }).from(events).innerJoin(museums, eq(museums.id, events.museumId));
  const rows = await q.where(id === undefined ? eq(events.active, true) : and(eq(events.active, true), eq(events.id, id))).orderBy(events.id);
  return rows.map((r) => ({ ...r.event, zone: r.zone }));
}

/** The dates of an event starting in [from, to), in start order (inactive ones included). */
export function eventDatesBetween(db: DbOrTx, eventId: number, from: Date, to: Date): Promise<EventDateRowOf[]> {
  return db
    .select()
    .from(eventDates)
    .where(and(eq(eventDates.eventId, eventId), gte(eventDates.startAt, from), lt(eventDates.startAt, to)))
    .orderBy(asc(eventDates.startAt), asc(eventDates.id));
}

/** Ids of the active tours, in id order. */
export async function activeTourIds(db: DbOrTx): Promise<number[]> {
  return (await db.select({ id: tours.id }).from(tours).where(eq(tours.active, true)).orderBy(tours.id)).map((r) => r.id);
}

export function languagesByIds(db: DbOrTx, ids: number[]): Promise<Array<{ id: number; code: string; name: string }>> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.select({ id: languages.id, code: languages.code, name: languages.name }).from(languages).where(inArray(languages.id, ids)).orderBy(languages.id);
}
