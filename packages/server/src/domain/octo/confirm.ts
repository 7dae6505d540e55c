// OCTO confirm: finalizes the booking's order (barcodes, ticket and confirmation documents,
// webhooks and mail as for any finalized order). `unitItems` replaces the list; a different
// count re-places the order first (rebook.ts). Confirming a confirmed booking answers it as it is.
import { updateOctoBooking } from '../../db/repositories/octo.ts';
import { transaction } from '../../db/transaction.ts';
import type { Ctx } from '../context.ts';
import { finalizeOrder } from '../orders/finalizeOrder.ts';
import { orderCancelled, orderExpired } from '../orders/finalize.ts';
import { reload } from '../orders/internal.ts';
import { ownBooking, targetOfItem, viewOf, within, type OctoBooking, type OctoUnitItemRecord } from './internal.ts';
import { replaceOctoOrder } from './rebook.ts';

export interface OctoConfirmInput {
  contact: Record<string, unknown>;
  resellerReference?: string | null | undefined;
  unitItems?: OctoUnitItemRecord[] | undefined;
}

export async function confirmOctoBooking(ctx: Ctx, uuid: string, input: OctoConfirmInput): Promise<OctoBooking> {
  return transaction(ctx.db, async (tx) => {
    const rec = await ownBooking(tx, ctx, uuid, true);
    const order = await reload(tx, ctx, rec.orderId);
    if (order.status === 'finalized') return viewOf(tx, ctx, rec);
    if (order.status === 'cancelled') throw orderCancelled();
    if (order.status === 'expired') throw orderExpired();
    const resellerReference = input.resellerReference !== undefined ? input.resellerReference : rec.resellerReference;
    let orderId = rec.orderId;
    const item = order.items.find((i) => i.status === 'active');
    if (input.unitItems && item && input.unitItems.length !== item.quantity) {
      orderId = await replaceOctoOrder(tx, ctx, order, {
        target: targetOfItem(rec, item),
        quantity: input.unitItems.length,
        notes: rec.notes,
        resellerReference,
        testMode: rec.testMode,
        finalize: false,
      });
    }
    await finalizeOrder(within(ctx, tx), String(orderId));
    const now = ctx.clock.now();
    const values = {
      orderId,
      contact: input.contact,
      resellerReference,
      updatedAt: now,
      ...(input.unitItems ? { unitItems: input.unitItems } : {}),
    };
    await updateOctoBooking(tx, rec.accountId, rec.uuid, values);
    return viewOf(tx, ctx, { ...rec, ...values });
  });
}
