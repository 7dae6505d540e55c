// OCTO reads: one booking by uuid, or the bookings matching a filter (at least one is required;
// the transport refuses a bare list). Only the caller's own bookings, whatever the filter.
import { listOctoBookings as listRows } from '../../db/repositories/octo.ts';
import { transaction } from '../../db/transaction.ts';
import type { Ctx } from '../context.ts';
import { loadViews } from '../orders/internal.ts';
import { findOrderById } from '../../db/repositories/orders.ts';
import { addDays, startOfLocalDay } from '../time.ts';
import { accountOf, ownBooking, viewOf, type OctoBooking } from './internal.ts';

export async function getOctoBooking(ctx: Ctx, uuid: string): Promise<OctoBooking> {
  return transaction(ctx.db, async (tx) => viewOf(tx, ctx, await ownBooking(tx, ctx, uuid)));
}

export interface OctoListFilter {
  resellerReference?: string | undefined;
  /** The order id the booking answers as its supplierReference. */
  orderId?: number | undefined;
  /** Local dates (inclusive) in `zone`. */
  localDateStart?: string | undefined;
  localDateEnd?: string | undefined;
  zone: string;
}

const LIMIT = 500;

export async function listOctoBookings(ctx: Ctx, f: OctoListFilter): Promise<OctoBooking[]> {
  const accountId = accountOf(ctx);
  const range =
    f.localDateStart && f.localDateEnd
      ? { startFrom: startOfLocalDay(f.localDateStart, f.zone), startTo: startOfLocalDay(addDays(f.localDateEnd, 1), f.zone) }
      : {};
  const rows = await listRows(ctx.db, accountId, { resellerReference: f.resellerReference, orderId: f.orderId, ...range }, LIMIT);
  const orders = (await Promise.all(rows.map((r) => findOrderById(ctx.db, r.orderId)))).filter((o) => o !== null);
  const views = await loadViews(ctx.db, ctx, orders);
  const byId = new Map(views.map((v) => [v.id, v]));
  return rows.flatMap((record) => {
    const order = byId.get(record.orderId);
    return order ? [{ record, order }] : [];
  });
}
