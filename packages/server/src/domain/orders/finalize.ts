// Finalizing, shared by POST /orders/:id/finalize and `finalize: true` on create. Runs inside the
// caller's transaction with the order row locked, so two finalize calls cannot both issue
// barcodes: the second one sees status 'finalized' and returns without doing anything.
import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { orderItems, orders } from '../../db/schema/index.ts';
import { confirmCapacity } from '../capacity/index.ts';
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import type { DocumentSummary } from '../documents/internal.ts';
import { queueFinalizedOrderDocuments } from '../documents/queueOrderDocuments.ts';
import { issueBarcodes, type IssuedBarcode } from './barcodes.ts';
import { statusAt, type OrderRow } from './internal.ts';

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
  await recordFinalized(tx, ctx, order, items);
}

/**
 * The bookkeeping of finalizing, apart from capacity and the status column: barcodes and
 * documents. `finalize: true` on create inserts the order as finalized and runs this BEFORE
 * claiming capacity (with permanent allocations), so the slot locks are held only for the claim
 * and the commit; a refused claim rolls all of it back. Returns what it created, for the answer.
 */
export async function recordFinalized(
  tx: Tx,
  ctx: Ctx,
  order: { id: number; accountId: number; museumIds: number[] },
  items: Array<{ id: number; type: string; quantity: number }>,
): Promise<{ barcodes: IssuedBarcode[]; documents: DocumentSummary[] }> {
  const now = ctx.clock.now();
  // One barcode per admission: each ticket or event seat, one per tour booking (a group).
  const issued = await issueBarcodes(
    tx,
    now,
    items.map((i) => ({ orderItemId: i.id, count: i.type === 'Tour' ? 1 : i.quantity })),
  );
  // Ticket/confirmation/invoice rows and their render jobs commit (or roll back) with the order.
  const docs = await queueFinalizedOrderDocuments(tx, ctx, order, items.map((i) => i.type));
  return { barcodes: issued, documents: docs };
}
