// Shared pieces of the OCTO booking verbs (docs/octo.md). An OCTO booking is an order of the
// reseller's account (the same record as its go~mus-API orders: capacity, hold limits, money,
// tickets, webhooks, reports) plus a row that maps OCTO onto it (db/schema/octo.ts).
import type { Tx } from '../../db/client.ts';
import { findOctoBooking, type OctoBookingRow } from '../../db/repositories/octo.ts';
import type { OctoUnitItemRecord } from '../../db/schema/octo.ts';
import type { Ctx } from '../context.ts';
import { DomainError, notFound } from '../errors.ts';
import { reload, type OrderView } from '../orders/internal.ts';

export type { OctoBookingRow, OctoUnitItemRecord };

export interface OctoBooking {
  record: OctoBookingRow;
  order: OrderView;
}

/** Which product a booking is for and when: what an order item needs. */
export interface OctoTarget {
  productId: string;
  optionId: string;
  availabilityId: string;
  /** What the order item books: a ticket, an event date, or a tour (in one of its languages). */
  kind: 'Ticket' | 'Event' | 'Tour';
  /** The ticket, event date or tour id. */
  id: number;
  languageId?: number | undefined;
  /** The order item's `time`: an ISO instant, or a date for a day ticket. */
  time: string;
}

/** The target a booking's live order item books, to re-place it with another count. */
export function targetOfItem(
  rec: Pick<OctoBookingRow, 'productId' | 'optionId' | 'availabilityId'>,
  item: { type: string; ticketId: number | null; eventDateId: number | null; tourId: number | null; languageId: number | null; startAt: Date },
): OctoTarget {
  const kind = item.type === 'Event' ? 'Event' : item.type === 'Tour' ? 'Tour' : 'Ticket';
  const id = (kind === 'Event' ? item.eventDateId : kind === 'Tour' ? item.tourId : item.ticketId)!;
  return { productId: rec.productId, optionId: rec.optionId, availabilityId: rec.availabilityId, kind, id, languageId: item.languageId ?? undefined, time: item.startAt.toISOString() };
}

/** The reseller account acting; OCTO is for reseller tokens only. */
export function accountOf(ctx: Ctx): number {
  const p = ctx.principal;
  if (p.kind !== 'account' || p.access !== 'reseller') throw new DomainError('FORBIDDEN', 'OCTO is for reseller tokens');
  return p.accountId;
}

/** A context whose verbs run inside `tx`. */
export const within = (ctx: Ctx, tx: Tx): Ctx => ({ ...ctx, db: tx as unknown as Ctx['db'] });

/** The caller's booking; another account's uuid is the same NOT_FOUND as an unknown one. */
export async function ownBooking(tx: Tx, ctx: Ctx, uuid: string, forUpdate = false): Promise<OctoBookingRow> {
  const r = await findOctoBooking(tx, accountOf(ctx), uuid, forUpdate);
  if (!r) throw notFound('booking');
  return r;
}

export async function viewOf(tx: Tx | Ctx['db'], ctx: Ctx, record: OctoBookingRow): Promise<OctoBooking> {
  return { record, order: await reload(tx, ctx, record.orderId) };
}

/** The time a confirmed booking stops being cancellable (its first start minus the cutoff). */
export function cancellableUntil(ctx: Ctx, order: OrderView): Date | null {
  const starts = order.items.map((i) => i.startAt.getTime());
  if (starts.length === 0) return null;
  return new Date(Math.min(...starts) - ctx.config.octoCancellationCutoffHours * 3_600_000);
}

export const pastCutoff = () => new DomainError('ORDER_FINALIZED', 'the cancellation cutoff of this booking has passed');
