// Finalizing a pending order (POST /orders/:id/finalize; `finalize: true` on create is written
// by order_place instead, see placeOrder.ts). Runs inside the caller's transaction with the order
// row locked, so two finalize calls cannot both issue barcodes: the second one sees status
// 'finalized' and returns without doing anything.
import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { orderItems, orders } from '../../db/schema/index.ts';
import { confirmCapacity } from '../capacity/index.ts';
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import { queueFinalizedOrderDocuments } from '../documents/queueOrderDocuments.ts';
import { recordEvent } from '../events/record.ts';
import { issueBarcodes } from './barcodes.ts';
import { orderEventScope, statusAt, type OrderRow } from './internal.ts';

export const orderExpired = () => new DomainError('ORDER_EXPIRED', 'order has expired and cannot be changed anymore');
export const orderCancelled = () => new DomainError('ORDER_CANCELLED', 'order is cancelled');

/**
 * Why an active item of the order can no longer be sold because of a closure, or null. A pending
 * order's items passed the sellability rule when they were placed; what can change before the
 * order is finalized at short notice is a closure (docs/adr/0013-sellability-rule.md). This asks
 * the closure guard every booking insert passes (src/db/sql/atrium_closure_hit.sql): it takes
 * each item's museum schedule lock SHARED, held until the transaction ends, and reads the
 * closures committed before it. A closure takes that lock EXCLUSIVE, so either it committed
 * first (and this sees it) or it waits for this finalize and then lists the finalized order.
 * Called before the order row is locked: a closure takes the schedule lock before order rows
 * (to cancel them), and taking them in the same order cannot deadlock.
 */
export async function closureHitOfOrder(tx: Tx, orderId: number): Promise<string | null> {
  const res = await tx.execute<{ reason: string | null }>(sql`
    select atrium_closure_hit(i.museum_id, i.ticket_id, i.event_date_id, i.tour_id, i.start_at) as reason
      from (select * from order_items where order_id = ${orderId} and status = 'active' order by museum_id, id) i`);
  return res.rows.find((r) => r.reason !== null)?.reason ?? null;
}

export async function finalizeLocked(tx: Tx, ctx: Ctx, order: OrderRow): Promise<void> {
  const now = ctx.clock.now();
  const status = statusAt(order, now);
  if (status === 'finalized') return;
  if (status === 'cancelled') throw orderCancelled();
  if (status === 'expired') throw orderExpired();
  const items = await tx
    .select({ id: orderItems.id, type: orderItems.type, quantity: orderItems.quantity })
    .from(orderItems)
    .where(and(eq(orderItems.orderId, order.id), eq(orderItems.status, 'active')));
  // Makes the allocations permanent under the slot locks; throws ORDER_EXPIRED if they lapsed.
  await confirmCapacity(tx, ctx, items.map((i) => i.id));
  await tx
    .update(orders)
    .set({ status: 'finalized', finalizedAt: now, expiresAt: null, updatedAt: now })
    .where(eq(orders.id, order.id));
  await recordEvent({ ...ctx, db: tx }, 'order.finalized', orderEventScope(order));
  // One barcode per admission: each ticket or event seat, one per tour booking (a group).
  await issueBarcodes(
    tx,
    now,
    items.map((i) => ({ orderItemId: i.id, count: i.type === 'Tour' ? 1 : i.quantity })),
  );
  // Ticket/confirmation/invoice rows, flagged for rendering, commit (or roll back) with the order.
  await queueFinalizedOrderDocuments(tx, ctx, order, items.map((i) => i.type));
}
