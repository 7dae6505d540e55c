// OCTO PATCH: contact, notes and references change in place; a new product, date or unit count
// re-places the order (rebook.ts) and keeps its state (a hold stays a hold, a confirmed booking
// stays confirmed). Allowed while the booking is cancellable: on hold, or confirmed before the
// cutoff. Notes and the reseller reference of a pending order are kept on the order too.
import { updateOctoBooking } from '../../db/repositories/octo.ts';
import { transaction } from '../../db/transaction.ts';
import { extendHold } from '../capacity/extendHold.ts';
import type { Ctx } from '../context.ts';
import { orderCancelled, orderExpired } from '../orders/finalize.ts';
import { findOrder, reload } from '../orders/internal.ts';
import { updateOrder } from '../orders/updateOrder.ts';
import { cancellableUntil, ownBooking, targetOfItem, pastCutoff, viewOf, within, type OctoBooking, type OctoTarget, type OctoUnitItemRecord } from './internal.ts';
import { replaceOctoOrder } from './rebook.ts';

export interface OctoUpdateInput {
  target?: OctoTarget | undefined;
  unitItems?: OctoUnitItemRecord[] | undefined;
  notes?: string | null | undefined;
  resellerReference?: string | null | undefined;
  contact?: Record<string, unknown> | undefined;
  expirationMinutes?: number | undefined;
}

export async function changeOctoBooking(ctx: Ctx, uuid: string, input: OctoUpdateInput): Promise<OctoBooking> {
  return transaction(ctx.db, async (tx) => {
    const rec = await ownBooking(tx, ctx, uuid, true);
    const order = await reload(tx, ctx, rec.orderId);
    if (order.status === 'cancelled') throw orderCancelled();
    if (order.status === 'expired') throw orderExpired();
    const now = ctx.clock.now();
    const confirmed = order.status === 'finalized';
    if (confirmed) {
      const until = cancellableUntil(ctx, order);
      if (until && now >= until) throw pastCutoff();
    }
    const notes = input.notes !== undefined ? input.notes : rec.notes;
    const resellerReference = input.resellerReference !== undefined ? input.resellerReference : rec.resellerReference;
    const item = order.items.find((i) => i.status === 'active')!;
    const quantity = input.unitItems?.length ?? item.quantity;
    let orderId = rec.orderId;
    if (input.target || quantity !== item.quantity) {
      const target = input.target ?? targetOfItem(rec, item);
      orderId = await replaceOctoOrder(tx, ctx, order, { target, quantity, notes, resellerReference, testMode: rec.testMode, finalize: confirmed, expirationMinutes: input.expirationMinutes });
    } else if (!confirmed) {
      if (input.notes !== undefined || input.resellerReference !== undefined) await updateOrder(within(ctx, tx), String(orderId), { comment: notes, reference: resellerReference });
      if (input.expirationMinutes !== undefined) {
        const row = await findOrder(tx, ctx, orderId, true);
        await extendHold(tx, ctx, row, order.items.map((i) => i.id), input.expirationMinutes);
      }
    }
    const values = {
      orderId,
      notes,
      resellerReference,
      updatedAt: now,
      ...(input.target ? { productId: input.target.productId, optionId: input.target.optionId, availabilityId: input.target.availabilityId } : {}),
      ...(input.unitItems ? { unitItems: input.unitItems } : {}),
      ...(input.contact ? { contact: input.contact } : {}),
    };
    await updateOctoBooking(tx, rec.accountId, rec.uuid, values);
    return viewOf(tx, ctx, { ...rec, ...values });
  });
}

