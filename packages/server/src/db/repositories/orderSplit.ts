// Splitting an order item so that part of its quantity can be cancelled: the part becomes an item
// of its own (same ticket, start and unit price), taking along as many of the item's barcodes and
// as much of each of its live capacity allocations. The capacity_totals triggers follow the
// changed quantities (src/db/sql/capacity_totals_*.sql), so the part's capacity is freed once,
// when the cancellation releases the new item's allocations.
import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Tx } from '../client.ts';
import { barcodes, capacityAllocations, giftCards, orderItems, singlePurposeVouchers } from '../schema/index.ts';

/** What `part` units of an item cost: unit price times the part, or its rounded share of the price. */
export function partPriceCents(item: { priceCents: number; unitPriceCents: number; quantity: number }, part: number): number {
  if (part >= item.quantity) return item.priceCents;
  return item.priceCents === item.unitPriceCents * item.quantity ? item.unitPriceCents * part : Math.round((item.priceCents * part) / item.quantity);
}

/**
 * Moves `part` units of the (locked, active) item `itemId` to a new active item and returns its
 * id. The price moves with it (partPriceCents).
 */
export async function splitOrderItem(tx: Tx, itemId: number, part: number): Promise<number> {
  const [item] = await tx.select().from(orderItems).where(eq(orderItems.id, itemId)).for('update');
  if (!item || part <= 0 || part >= item.quantity) throw new Error('split of an item needs 0 < part < quantity');
  const partPrice = partPriceCents(item, part);
  const { id: _id, ...rest } = item;
  const [created] = await tx
    .insert(orderItems)
    .values({ ...rest, quantity: part, priceCents: partPrice, attendees: item.attendees ? item.attendees.slice(item.quantity - part) : null })
    .returning({ id: orderItems.id });
  const newId = created!.id;
  await tx
    .update(orderItems)
    .set({ quantity: item.quantity - part, priceCents: item.priceCents - partPrice, ...(item.attendees ? { attendees: item.attendees.slice(0, item.quantity - part) } : {}) })
    .where(eq(orderItems.id, itemId));
  // The newest valid codes go with the part: the ones handed out first stay with the visitor.
  const codes = await tx
    .select({ id: barcodes.id })
    .from(barcodes)
    .where(and(eq(barcodes.orderItemId, itemId), eq(barcodes.status, 'valid')))
    .orderBy(desc(barcodes.id))
    .limit(part);
  if (codes.length) await tx.update(barcodes).set({ orderItemId: newId }).where(inArray(barcodes.id, codes.map((c) => c.id)));
  // Gift cards and vouchers sold by the line go with the part, untouched ones first: the part is
  // what gets cancelled, and a used one there refuses the cancellation (domain/vouchers/orderLines.ts).
  const cards = await tx
    .select({ id: giftCards.id })
    .from(giftCards)
    .where(eq(giftCards.orderItemId, itemId))
    .orderBy(sql`(${giftCards.voidedAt} is null and ${giftCards.balanceCents} = ${giftCards.initialCents}) desc`, desc(giftCards.id))
    .limit(part);
  if (cards.length) await tx.update(giftCards).set({ orderItemId: newId }).where(inArray(giftCards.id, cards.map((c) => c.id)));
  const vouchers = await tx
    .select({ id: singlePurposeVouchers.id })
    .from(singlePurposeVouchers)
    .where(eq(singlePurposeVouchers.orderItemId, itemId))
    .orderBy(sql`(${singlePurposeVouchers.voidedAt} is null and ${singlePurposeVouchers.orderId} is null) desc`, desc(singlePurposeVouchers.id))
    .limit(part);
  if (vouchers.length) await tx.update(singlePurposeVouchers).set({ orderItemId: newId }).where(inArray(singlePurposeVouchers.id, vouchers.map((v) => v.id)));
  const live = await tx
    .select()
    .from(capacityAllocations)
    .where(and(eq(capacityAllocations.orderItemId, itemId), isNull(capacityAllocations.releasedAt)))
    .orderBy(asc(capacityAllocations.id))
    .for('update');
  for (const a of live) {
    // A tour run counts once however many people go: it stays with the remaining item.
    if (a.resource === 'tour' || a.quantity <= part) continue;
    await tx.update(capacityAllocations).set({ quantity: a.quantity - part }).where(eq(capacityAllocations.id, a.id));
    const { id: _aid, ...copy } = a;
    await tx.insert(capacityAllocations).values({ ...copy, quantity: part, orderItemId: newId });
  }
  return newId;
}
