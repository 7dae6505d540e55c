// Statements on reservations (holds). The hold's capacity is claimed by the SQL function
// reservation_place (src/db/sql/reservation_place.sql) together with the row.
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../client.ts';
import { rowFromJson, rowToJson } from '../json.ts';
import { eventDates, events, museums, reservations, tickets } from '../schema/index.ts';

export type ReservationRow = typeof reservations.$inferSelect;

/** Inserts a reservation and claims its capacity (`claim`: claimSpec) in one statement. */
export async function placeReservation(db: DbOrTx, reservation: typeof reservations.$inferInsert, claim: unknown): Promise<ReservationRow> {
  const payload = { reservation: rowToJson(reservations, reservation), claim };
  const result = await db.execute<{ r: Record<string, unknown> }>(sql`select reservation_place(${JSON.stringify(payload)}::jsonb) as r`);
  return rowFromJson(reservations, result.rows[0]!.r);
}

/** Locks (FOR UPDATE) an account's reservations with these tokens, in id order. */
export function lockReservationsByToken(tx: DbOrTx, accountId: number, tokens: string[]): Promise<ReservationRow[]> {
  return tx
    .select()
    .from(reservations)
    .where(and(inArray(reservations.token, tokens), eq(reservations.accountId, accountId)))
    .orderBy(reservations.id)
    .for('update');
}

/** Ids of an account's reservations among `tokens` that are neither released nor consumed. */
export async function unreleasedReservationIds(db: DbOrTx, accountId: number, tokens: string[]): Promise<number[]> {
  const rows = await db
    .select({ id: reservations.id })
    .from(reservations)
    .where(and(inArray(reservations.token, tokens), eq(reservations.accountId, accountId), isNull(reservations.releasedAt), isNull(reservations.consumedAt)));
  return rows.map((r) => r.id);
}

export async function markReservationReleased(tx: Tx, id: number, at: Date): Promise<void> {
  await tx.update(reservations).set({ releasedAt: at }).where(eq(reservations.id, id));
}

export async function resizeReservation(tx: Tx, id: number, quantity: number, expiresAt: Date): Promise<ReservationRow> {
  const [u] = await tx.update(reservations).set({ quantity, expiresAt }).where(eq(reservations.id, id)).returning();
  return u!;
}

/** The zone of the museum of a ticket or of an event date's event. */
export async function zoneOfProduct(db: DbOrTx, r: { ticketId: number | null; eventDateId: number | null }): Promise<string> {
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
