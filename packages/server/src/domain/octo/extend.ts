// OCTO extend: a live hold (pending order) is held longer, never past its lifetime cap
// (ATRIUM_HOLD_MAX_MINUTES from its creation, the same cap as go~mus-API holds).
import { updateOctoBooking } from '../../db/repositories/octo.ts';
import { transaction } from '../../db/transaction.ts';
import { extendHold } from '../capacity/extendHold.ts';
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import { orderCancelled, orderExpired } from '../orders/finalize.ts';
import { findOrder, reload } from '../orders/internal.ts';
import { ownBooking, viewOf, type OctoBooking } from './internal.ts';

export async function extendOctoBooking(ctx: Ctx, uuid: string, input: { expirationMinutes?: number | undefined }): Promise<OctoBooking> {
  return transaction(ctx.db, async (tx) => {
    const rec = await ownBooking(tx, ctx, uuid, true);
    const seen = await reload(tx, ctx, rec.orderId);
    if (seen.status === 'expired') throw orderExpired();
    if (seen.status === 'cancelled') throw orderCancelled();
    if (seen.status === 'finalized') throw new DomainError('ORDER_FINALIZED', 'only a booking ON_HOLD can be extended');
    const order = await findOrder(tx, ctx, rec.orderId, true);
    const minutes = input.expirationMinutes ?? ctx.config.orderPendingMinutes;
    await extendHold(tx, ctx, order, seen.items.map((i) => i.id), minutes);
    await updateOctoBooking(tx, rec.accountId, rec.uuid, { updatedAt: ctx.clock.now() });
    return viewOf(tx, ctx, { ...rec, updatedAt: ctx.clock.now() });
  });
}
