// The catalogue rows a booking or an availability read needs, read through the process's
// master-data memo (ctx.masterData, src/cache/masterData.ts) when there is one. Callers pass the
// handle to read with (a transaction when they are inside one, so a cold miss never waits for a
// second pool connection). Values are shared between requests: never mutate them.
import { eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { eventDates, events, museums, tickets, tourLanguages, tours } from '../../db/schema/index.ts';
import { masterData, type Ctx } from '../context.ts';

export type TicketRow = typeof tickets.$inferSelect & { zone: string };
export type EventDateRow = { date: typeof eventDates.$inferSelect; event: typeof events.$inferSelect; zone: string };
export type TourRow = typeof tours.$inferSelect & { zone: string; languageIds: number[] };

type Memo = Pick<Ctx, 'masterData'>;

export function ticketById(ctx: Memo, db: DbOrTx, id: number): Promise<TicketRow | null> {
  return masterData(ctx, `ticket:${id}`, async () => {
    const [r] = await db
      .select({ ticket: tickets, zone: museums.timeZone })
      .from(tickets)
      .innerJoin(museums, eq(museums.id, tickets.museumId))
      .where(eq(tickets.id, id));
    return r ? { ...r.ticket, zone: r.zone } : null;
  });
}

/** Tickets among `ids` (all tickets for null), in id order; unknown ids are left out. */
export function ticketsByIds(ctx: Memo, db: DbOrTx, ids: number[] | null): Promise<TicketRow[]> {
  const key = ids === null ? 'tickets:*' : `tickets:${[...ids].sort((a, b) => a - b).join(',')}`;
  return masterData(ctx, key, async () => {
    const q = db.select({ ticket: tickets, zone: museums.timeZone }).from(tickets).innerJoin(museums, eq(museums.id, tickets.museumId));
    const rows = await (ids === null ? q : q.where(inArray(tickets.id, ids))).orderBy(tickets.id);
    return rows.map((r) => ({ ...r.ticket, zone: r.zone }));
  });
}

export function eventDateById(ctx: Memo, db: DbOrTx, id: number): Promise<EventDateRow | null> {
  return masterData(ctx, `event_date:${id}`, async () => {
    const [r] = await db
      .select({ date: eventDates, event: events, zone: museums.timeZone })
      .from(eventDates)
      .innerJoin(events, eq(events.id, eventDates.eventId))
      .innerJoin(museums, eq(museums.id, events.museumId))
      .where(eq(eventDates.id, id));
    return r ?? null;
  });
}

export function tourById(ctx: Memo, db: DbOrTx, id: number): Promise<TourRow | null> {
  return masterData(ctx, `tour:${id}`, async () => {
    const [r] = await db
      .select({ tour: tours, zone: museums.timeZone })
      .from(tours)
      .innerJoin(museums, eq(museums.id, tours.museumId))
      .where(eq(tours.id, id));
    if (!r) return null;
    const langs = await db.select({ id: tourLanguages.languageId }).from(tourLanguages).where(eq(tourLanguages.tourId, id));
    return { ...r.tour, zone: r.zone, languageIds: langs.map((l) => l.id) };
  });
}
