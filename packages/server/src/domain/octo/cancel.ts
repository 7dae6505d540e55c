// OCTO cancel (and DELETE): a hold is released, a confirmed booking cancelled with a full refund
// until the cutoff (ATRIUM_OCTO_CANCELLATION_CUTOFF_HOURS before its start) and refused after it,
// `force` or not: a reseller cannot override the museum's cutoff. Cancelling twice answers the
// cancelled booking.
import { updateOctoBooking } from '../../db/repositories/octo.ts';
import { transaction } from '../../db/transaction.ts';
import type { OctoCancellationRecord } from '../../db/schema/octo.ts';
import type { Ctx } from '../context.ts';
import { cancelOrder } from '../orders/cancelOrder.ts';
import { orderExpired } from '../orders/finalize.ts';
import { reload } from '../orders/internal.ts';
import { cancellableUntil, ownBooking, pastCutoff, viewOf, within, type OctoBooking } from './internal.ts';

export async function cancelOctoBooking(ctx: Ctx, uuid: string, input: { reason?: string | null | undefined }): Promise<OctoBooking> {
  return transaction(ctx.db, async (tx) => {
    const rec = await ownBooking(tx, ctx, uuid, true);
    const order = await reload(tx, ctx, rec.orderId);
    if (order.status === 'cancelled') return viewOf(tx, ctx, rec);
    if (order.status === 'expired') throw orderExpired();
    const now = ctx.clock.now();
    if (order.status === 'finalized') {
      const until = cancellableUntil(ctx, order);
      if (until && now >= until) throw pastCutoff();
    }
    await cancelOrder(within(ctx, tx), String(order.id), {});
    const cancellation: OctoCancellationRecord = {
      refund: order.status === 'finalized' ? 'FULL' : 'NONE',
      reason: input.reason ?? null,
      utcCancelledAt: now.toISOString(),
    };
    await updateOctoBooking(tx, rec.accountId, rec.uuid, { cancellation, updatedAt: now });
    return viewOf(tx, ctx, { ...rec, cancellation, updatedAt: now });
  });
}
