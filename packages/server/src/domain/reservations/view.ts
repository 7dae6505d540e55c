// What reservation verbs return: the stored hold plus the zone its times are shown in.
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { eventDates, events, museums, tickets } from '../../db/schema/index.ts';
import type { ReservationRow } from './internal.ts';

export interface ReservationView {
  token: string;
  ticketId: number | null;
  dateId: number | null;
  quantity: number;
  startAt: Date;
  validUntil: Date;
  zone: string;
}

export async function museumZoneOf(db: DbOrTx, r: { ticketId: number | null; eventDateId: number | null }): Promise<string> {
  if (r.ticketId !== null) {
    const [z] = await db.select({ zone: museums.timeZone }).from(tickets).innerJoin(museums, eq(museums.id, tickets.museumId)).where(eq(tickets.id, r.ticketId));
    return z!.zone;
  }
  const [z] = await db
    .select({ zone: museums.timeZone })
    .from(eventDates)
    .innerJoin(events, eq(events.id, eventDates.eventId))
    .innerJoin(museums, eq(museums.id, events.museumId))
    .where(eq(eventDates.id, r.eventDateId!));
  return z!.zone;
}

export function toView(r: ReservationRow, zone: string): ReservationView {
  return { token: r.token, ticketId: r.ticketId, dateId: r.eventDateId, quantity: r.quantity, startAt: r.startAt, validUntil: r.expiresAt, zone };
}
