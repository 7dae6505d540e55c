// POST /orders/:id/cancellations: cancels the named items, or every item when none are named.
// The order row is locked first, so concurrent cancellations serialise; capacity is released by
// a guarded UPDATE (released_at IS NULL) in the capacity module, so cancelling twice releases
// nothing the second time. The order becomes cancelled when no active item is left; its total
// is the sum of the items still active. A part of an item (`parts`: some of its quantity) is first
// split off into an item of its own (db/repositories/orderSplit.ts), which is then cancelled like
// any other, so its capacity, barcodes and credit note follow the same path.
import { cancelItems, itemsOfOrder, updateOrderRow } from '../../db/repositories/orders.ts';
import { splitOrderItem } from '../../db/repositories/orderSplit.ts';
import { transaction } from '../../db/transaction.ts';
import { releaseCapacity } from '../capacity/releaseCapacity.ts';
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import { requeueOrderDocumentsAfterCancellation } from '../documents/queueOrderDocuments.ts';
import { recordEvent } from '../events/record.ts';
import { voidBarcodes } from './barcodes.ts';
import { giveBackOrderCodes, voidOrderCodes } from '../vouchers/orderLines.ts';
import { orderExpired } from './finalize.ts';
import { findOrder, orderEventScope, reload, statusAt, type OrderView } from './internal.ts';

export interface CancelInput {
  item_ids?: number[];
  /** Some units of an item: the rest of it stays active. */
  parts?: Array<{ item_id: number; quantity: number }>;
}

/** Why these parts cannot be cancelled (English, for the API's `errors`), or none. */
export function partProblems(items: Array<{ id: number; status: string; quantity: number }>, parts: CancelInput['parts']): string[] {
  const out: string[] = [];
  for (const p of parts ?? []) {
    const item = items.find((i) => i.id === p.item_id);
    if (!item) out.push(`order item ${p.item_id} is not part of this order`);
    else if (item.status !== 'active') out.push(`order item ${p.item_id} is already cancelled`);
    else if (!Number.isInteger(p.quantity) || p.quantity < 1 || p.quantity > item.quantity) {
      out.push(`order item ${p.item_id}: quantity must be between 1 and ${item.quantity}`);
    }
  }
  return out;
}

export async function cancelOrder(ctx: Ctx, idOrToken: string, input: CancelInput): Promise<OrderView> {
  // The answer is read before the commit, from the transaction that made it.
  return transaction(ctx.db, async (tx) => {
    const order = await findOrder(tx, ctx, idOrToken, true);
    const now = ctx.clock.now();
    const status = statusAt(order, now);
    if (status === 'cancelled') return reload(tx, ctx, order.id);
    if (status === 'expired') throw orderExpired();
    let items = await itemsOfOrder(tx, order.id);
    const problems = partProblems(items, input.parts);
    if (problems.length) throw new DomainError('VALIDATION_FAILED', 'order could not be cancelled', { errors: problems });
    const named = [...(input.item_ids ?? [])];
    for (const p of input.parts ?? []) {
      const item = items.find((i) => i.id === p.item_id)!;
      named.push(p.quantity < item.quantity ? await splitOrderItem(tx, item.id, p.quantity) : item.id);
    }
    if (input.parts?.length) items = await itemsOfOrder(tx, order.id);
    const unknown = named.filter((n) => !items.some((i) => i.id === n));
    if (unknown.length) {
      throw new DomainError('VALIDATION_FAILED', 'order could not be cancelled', {
        errors: unknown.map((n) => `order item ${n} is not part of this order`),
      });
    }
    const targets = items
      .filter((i) => i.status === 'active' && (named.length === 0 || named.includes(i.id)))
      .map((i) => i.id);
    if (targets.length === 0) return reload(tx, ctx, order.id);
    // Gift cards and vouchers it sold are voided first: one already used refuses the whole call.
    await voidOrderCodes(tx, ctx, targets);
    await releaseCapacity(tx, ctx, { orderItemIds: targets });
    await cancelItems(tx, targets, now);
    await voidBarcodes(tx, targets);
    const left = items.filter((i) => i.status === 'active' && !targets.includes(i.id));
    await updateOrderRow(tx, order.id, {
      totalPriceCents: left.reduce((s, i) => s + i.priceCents, 0),
      updatedAt: now,
      ...(left.length === 0 ? { status: 'cancelled', cancelledAt: now, expiresAt: null } : {}),
    });
    // The codes it took come back: vouchers of the cancelled items, promo uses with the whole order.
    await giveBackOrderCodes(tx, ctx, order.id, targets, left.length === 0);
    // One event per cancellation, whole or items: which items it cancelled travel with it.
    await recordEvent({ ...ctx, db: tx }, 'order.cancelled', { ...orderEventScope(order), data: { cancelled_item_ids: targets } });
    // Finalized orders: their ticket/confirmation PDFs are rendered again with the void barcodes,
    // and a credit note for the cancelled items is queued (the invoice itself never changes).
    await requeueOrderDocumentsAfterCancellation(tx, ctx, order.id, targets);
    return reload(tx, ctx, order.id);
  });
}
