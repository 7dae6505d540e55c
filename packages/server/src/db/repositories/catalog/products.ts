// Writes of tickets, events and tours (staff), with the links they own: a ticket's quotas, a
// tour's languages. Each `lock…` reads the row FOR UPDATE: two edits of one product serialise.
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../client.ts';
import { events, ticketQuotas, tickets, tourLanguages, tours } from '../../schema/index.ts';

export type Ticket = typeof tickets.$inferSelect;
export type TicketValues = typeof tickets.$inferInsert;
export type Event = typeof events.$inferSelect;
export type EventValues = typeof events.$inferInsert;
export type Tour = typeof tours.$inferSelect;
export type TourValues = typeof tours.$inferInsert;

export async function lockTicket(db: DbOrTx, id: number): Promise<Ticket | undefined> {
  const [t] = await db.select().from(tickets).where(eq(tickets.id, id)).for('update');
  return t;
}

/** The quota ids a ticket draws from. */
export async function quotaIdsOfTicket(db: DbOrTx, ticketId: number): Promise<number[]> {
  const links = await db.select({ q: ticketQuotas.quotaId }).from(ticketQuotas).where(eq(ticketQuotas.ticketId, ticketId));
  return links.map((l) => l.q);
}

export async function insertTicket(db: DbOrTx, values: TicketValues): Promise<Ticket> {
  return (await db.insert(tickets).values(values).returning())[0]!;
}

export async function updateTicket(db: DbOrTx, id: number, values: TicketValues & { updatedAt: Date }): Promise<Ticket> {
  return (await db.update(tickets).set(values).where(eq(tickets.id, id)).returning())[0]!;
}

/** Links a ticket to `quotaIds`; with `replace`, its former links go first. */
export async function setTicketQuotas(db: DbOrTx, ticketId: number, quotaIds: number[], replace: boolean): Promise<void> {
  if (replace) await db.delete(ticketQuotas).where(eq(ticketQuotas.ticketId, ticketId));
  if (quotaIds.length) await db.insert(ticketQuotas).values(quotaIds.map((quotaId) => ({ ticketId, quotaId })));
}

export async function lockEvent(db: DbOrTx, id: number): Promise<Event | undefined> {
  const [e] = await db.select().from(events).where(eq(events.id, id)).for('update');
  return e;
}

export async function insertEvent(db: DbOrTx, values: EventValues): Promise<Event> {
  return (await db.insert(events).values(values).returning())[0]!;
}

export async function updateEvent(db: DbOrTx, id: number, values: EventValues & { updatedAt: Date }): Promise<Event> {
  return (await db.update(events).set(values).where(eq(events.id, id)).returning())[0]!;
}

export async function lockTour(db: DbOrTx, id: number): Promise<Tour | undefined> {
  const [t] = await db.select().from(tours).where(eq(tours.id, id)).for('update');
  return t;
}

/** The language ids a tour is offered in. */
export async function languageIdsOfTour(db: DbOrTx, tourId: number): Promise<number[]> {
  const langs = await db.select({ id: tourLanguages.languageId }).from(tourLanguages).where(eq(tourLanguages.tourId, tourId));
  return langs.map((l) => l.id);
}

export async function insertTour(db: DbOrTx, values: TourValues): Promise<Tour> {
  return (await db.insert(tours).values(values).returning())[0]!;
}

export async function updateTour(db: DbOrTx, id: number, values: TourValues & { updatedAt: Date }): Promise<Tour> {
  return (await db.update(tours).set(values).where(eq(tours.id, id)).returning())[0]!;
}

/** Offers a tour in `languageIds`; with `replace`, its former languages go first. */
export async function setTourLanguages(db: DbOrTx, tourId: number, languageIds: number[], replace: boolean): Promise<void> {
  if (replace) await db.delete(tourLanguages).where(eq(tourLanguages.tourId, tourId));
  if (languageIds.length) await db.insert(tourLanguages).values(languageIds.map((languageId) => ({ tourId, languageId })));
}
