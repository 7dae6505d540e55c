// Finalizing a pending order (POST /orders/:id/finalize; `finalize: true` on create is written
// by order_place instead, see placeOrder.ts). Runs inside the caller's transaction with the order
// row locked, so two finalize calls cannot both issue barcodes: the second one sees status
// 'finalized' and returns without doing anything.
import { and, eq } from 'drizzle-orm';
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
