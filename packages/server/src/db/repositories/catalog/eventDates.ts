// Writes of event dates (staff, recurrences, the catalogue import), with the event they belong to.
import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../client.ts';
import { eventDates, events, museums } from '../../schema/index.ts';
import type { Event } from './products.ts';

export type EventDate = typeof eventDates.$inferSelect;
export type EventDateValues = typeof eventDates.$inferInsert;

/** An event and its museum's time zone; with `lock`, the event row is locked FOR UPDATE. */
export async function eventWithZone(db: DbOrTx, id: number, lock = false): Promise<{ event: Event; zone: string } | undefined> {
  const q = db.select({ event: events, zone: museums.timeZone }).from(events).innerJoin(museums, eq(museums.id, events.museumId)).where(eq(events.id, id));
  const [found] = lock ? await q.for('update', { of: events }) : await q;
  return found;
}

/** A date of the event, locked FOR UPDATE. */
export async function lockEventDate(db: DbOrTx, id: number, eventId: number): Promise<EventDate | undefined> {
  const [d] = await db.select().from(eventDates).where(and(eq(eventDates.id, id), eq(eventDates.eventId, eventId))).for('update');
  return d;
}

export async function insertEventDate(db: DbOrTx, values: EventDateValues): Promise<EventDate> {
  return (await db.insert(eventDates).values(values).returning())[0]!;
}

export async function insertEventDates(db: DbOrTx, values: EventDateValues[]): Promise<EventDate[]> {
  return values.length ? db.insert(eventDates).values(values).returning() : [];
}

export async function updateEventDate(db: DbOrTx, id: number, values: EventDateValues & { updatedAt: Date }): Promise<EventDate> {
  return (await db.update(eventDates).set(values).where(eq(eventDates.id, id)).returning())[0]!;
}

/** Which of `starts` the event already has a date at (epoch ms). */
export async function eventDateStartsAmong(db: DbOrTx, eventId: number, starts: Date[]): Promise<Set<number>> {
  const rows = await db
    .select({ startAt: eventDates.startAt })
    .from(eventDates)
    .where(and(eq(eventDates.eventId, eventId), inArray(eventDates.startAt, starts)));
  return new Set(rows.map((r) => r.startAt.getTime()));
}
