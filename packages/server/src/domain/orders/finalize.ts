// Finalizing a pending order (POST /orders/:id/finalize; `finalize: true` on create is written
// by order_place instead, see placeOrder.ts). Runs inside the caller's transaction with the order
// row locked, so two finalize calls cannot both issue barcodes: the second one sees status
// 'finalized' and returns without doing anything.
import type { Tx } from '../../db/client.ts';
import { activeItemsOf, closureHitOfOrder as closureHit, updateOrderRow } from '../../db/repositories/orders.ts';
import { confirmCapacity } from '../capacity/confirmCapacity.ts';
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import { queueFinalizedOrderDocuments } from '../documents/queueOrderDocuments.ts';
import { recordEvent } from '../events/record.ts';
import { issueOrderManageLink } from '../shop/manageLink.ts';
import { admissionsOf, issueBarcodes } from './barcodes.ts';
import { issueOrderCodes } from '../vouchers/orderLines.ts';
import { orderEventScope, statusAt, type OrderRow } from './internal.ts';

export const orderExpired = () => new DomainError('ORDER_EXPIRED', 'order has expired and cannot be changed anymore');
export const orderCancelled = () => new DomainError('ORDER_CANCELLED', 'order is cancelled');

/**
 * Why an active item of the order can no longer be sold because of a closure, or null. A pending
 * order's items passed the sellability rule when they were placed; what can change before the
 * order is finalized at short notice is a closure (docs/adr/0013-sellability-rule.md). This asks
 * the closure guard every booking insert passes (atrium_closure_hit): it takes
 * each item's museum schedule lock SHARED, held until the transaction ends, and reads the
 * closures committed before it. A closure takes that lock EXCLUSIVE, so either it committed
 * first (and this sees it) or it waits for this finalize and then lists the finalized order.
 * Called before the order row is locked: a closure takes the schedule lock before order rows
 * (to cancel them), and taking them in the same order cannot deadlock.
 */
export function closureHitOfOrder(tx: Tx, orderId: number): Promise<string | null> {
  return closureHit(tx, orderId);
}

export async function finalizeLocked(tx: Tx, ctx: Ctx, order: OrderRow): Promise<void> {
  const now = ctx.clock.now();
  const status = statusAt(order, now);
  if (status === 'finalized') return;
  if (status === 'cancelled') throw orderCancelled();
  if (status === 'expired') throw orderExpired();
  const items = await activeItemsOf(tx, order.id);
  // Makes the allocations permanent under the slot locks; throws ORDER_EXPIRED if they lapsed.
  await confirmCapacity(tx, ctx, items.map((i) => i.id));
  await updateOrderRow(tx, order.id, { status: 'finalized', finalizedAt: now, expiresAt: null, updatedAt: now });
  await recordEvent({ ...ctx, db: tx }, 'order.finalized', orderEventScope(order));
  // A shop order's one manage link, shown on the confirmation page and in the mail.
  await issueOrderManageLink(ctx, tx, order);
  // One barcode per admission: each ticket or event seat, one per tour booking (a group).
  await issueBarcodes(
    tx,
    now,
    items.map((i) => ({ orderItemId: i.id, count: admissionsOf(i.type, i.quantity) })),
  );
  // Gift cards and vouchers sold by the order: valid from now, as its tickets.
  await issueOrderCodes(tx, ctx, order.id);
  // Ticket/confirmation/invoice rows, flagged for rendering, commit (or roll back) with the order.
  await queueFinalizedOrderDocuments(tx, ctx, order, items.map((i) => i.type));
}
