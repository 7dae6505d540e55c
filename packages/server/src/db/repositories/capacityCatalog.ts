// The catalogue rows a booking or an availability read needs (tickets, event dates, tours with
// their museum's zone; quotas and their overrides). The domain reads them through the process's
// master-data memo (domain/capacity/catalog.ts, quotas.ts).
import { and, eq, gte, inArray, lt } from 'drizzle-orm';
import type { DbOrTx } from '../client.ts';
import { eventDates, events, museums, quotaOverrides, quotaSlotOverrides, quotas, ticketQuotas, tickets, tourLanguages, tours } from '../schema/index.ts';

export type TicketRow = typeof tickets.$inferSelect & { zone: string };
export type EventDateRow = { date: typeof eventDates.$inferSelect; event: typeof events.$inferSelect; zone: string };
export type TourRow = typeof tours.$inferSelect & { zone: string; languageIds: number[] };

export async function findTicket(db: DbOrTx, id: number): Promise<TicketRow | null> {
  const [r] = await db
    .select({ ticket: tickets, zone: museums.timeZone })
    .from(tickets)
    .innerJoin(museums, eq(museums.id, tickets.museumId))
    .where(eq(tickets.id, id));
  return r ? { ...r.ticket, zone: r.zone } : null;
}

/** Tickets among `ids` (all tickets for null), in id order; unknown ids are left out. */
export async function findTickets(db: DbOrTx, ids: number[] | null): Promise<TicketRow[]> {
  const q = db.select({ ticket: tickets, zone: museums.timeZone }).from(tickets).innerJoin(museums, eq(museums.id, tickets.museumId));
  const rows = await (ids === null ? q : q.where(inArray(tickets.id, ids))).orderBy(tickets.id);
  return rows.map((r) => ({ ...r.ticket, zone: r.zone }));
}

export async function findEventDate(db: DbOrTx, id: number): Promise<EventDateRow | null> {
  const [r] = await db
    .select({ date: eventDates, event: events, zone: museums.timeZone })
    .from(eventDates)
    .innerJoin(events, eq(events.id, eventDates.eventId))
    .innerJoin(museums, eq(museums.id, events.museumId))
    .where(eq(eventDates.id, id));
  return r ?? null;
}

export async function findTour(db: DbOrTx, id: number): Promise<TourRow | null> {
  const [r] = await db
    .select({ tour: tours, zone: museums.timeZone })
    .from(tours)
    .innerJoin(museums, eq(museums.id, tours.museumId))
    .where(eq(tours.id, id));
  if (!r) return null;
  const langs = await db.select({ id: tourLanguages.languageId }).from(tourLanguages).where(eq(tourLanguages.tourId, id));
  return { ...r.tour, zone: r.zone, languageIds: langs.map((l) => l.id) };
}

/** The quotas of tickets with their own capacity, by ticket then quota id. */
export function quotaLinksOf(db: DbOrTx, ticketIds: number[]) {
  return db
    .select({ ticketId: ticketQuotas.ticketId, quotaId: quotas.id, kind: quotas.kind, capacity: quotas.capacity })
    .from(ticketQuotas)
    .innerJoin(quotas, eq(quotas.id, ticketQuotas.quotaId))
    .where(inArray(ticketQuotas.ticketId, ticketIds))
    .orderBy(ticketQuotas.ticketId, quotas.id);
}

/** Per-date capacity overrides of quotas on dates (capacity null: closed that day). */
export function quotaOverridesOn(db: DbOrTx, quotaIds: number[], dates: string[]) {
  return db
    .select()
    .from(quotaOverrides)
    .where(and(inArray(quotaOverrides.quotaId, quotaIds), inArray(quotaOverrides.date, dates)));
}

/** Per-slot capacity overrides of quotas for slots starting in [from, to). */
export function quotaSlotOverridesBetween(db: DbOrTx, quotaIds: number[], from: Date, to: Date) {
  return db
    .select()
    .from(quotaSlotOverrides)
    .where(and(inArray(quotaSlotOverrides.quotaId, quotaIds), gte(quotaSlotOverrides.slotStart, from), lt(quotaSlotOverrides.slotStart, to)));
}
