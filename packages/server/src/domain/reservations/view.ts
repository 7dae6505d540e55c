// What reservation verbs return: the stored hold plus the zone its times are shown in.
import type { DbOrTx } from '../../db/client.ts';
import { zoneOfProduct } from '../../db/repositories/reservations.ts';
import type { ReservationRow } from './internal.ts';

export interface ReservationView {
  token: string;
  ticketId: number | null;
  dateId: number | null;
  quantity: number;
  startAt: Date;
  validUntil: Date;
  zone: string;
  /** On creation: what the hold costs after `codes`, and what each code took off. */
  priceCents?: number;
  discounts?: Array<{ code: string; amountCents: number }>;
}

export function museumZoneOf(db: DbOrTx, r: { ticketId: number | null; eventDateId: number | null }): Promise<string> {
  return zoneOfProduct(db, r);
}

export function toView(r: ReservationRow, zone: string): ReservationView {
  return { token: r.token, ticketId: r.ticketId, dateId: r.eventDateId, quantity: r.quantity, startAt: r.startAt, validUntil: r.expiresAt, zone };
}
