// Moving a booked item to another free start of the same offer (docs/shop.md; moveTargets.ts), by the visitor
// on the manage page while the cancellation rule still allows changes. The item keeps its price
// (same offer, same price: nothing to pay or refund). In ONE transaction, under the order's row
// lock and the locks of both slots (taken together in the one ascending order every capacity
// writer uses, so two opposite moves cannot deadlock): the old allocation is released and the
// new one claimed with the capacity module's own verbs (all or nothing: a full slot rolls the
// release back), the item's start changes, its old barcodes are voided (refused at the door as
// cancelled) and new ones issued, the ticket PDF is rendered again, the move is audited and an
// order.rebooked event is recorded for webhooks.
import { countedAllocationsOf } from '../../db/repositories/capacity.ts';
import { itemsWithRules, setItemStart } from '../../db/repositories/shopManage.ts';
import type { Db } from '../../db/client.ts';
import { transaction } from '../../db/transaction.ts';
import { recordAudit } from '../audit/recordAudit.ts';
import type { SlotLeft } from '../availability/internal.ts';
import { claimCapacity, resolveClaims } from '../capacity/claimCapacity.ts';
import { allocationLockKey, lockSlots } from '../capacity/locks.ts';
import { releaseCapacity } from '../capacity/releaseCapacity.ts';
import { systemCtx, type Ctx } from '../context.ts';
import { requeueOrderDocumentsAfterCancellation } from '../documents/queueOrderDocuments.ts';
import { recordEvent } from '../events/record.ts';
import { invalid } from '../errors.ts';
import { issueBarcodes, voidBarcodes } from '../orders/barcodes.ts';
import { findOrder, orderEventScope, reload, type OrderItemView, type OrderView } from '../orders/internal.ts';
import { getManagedOrder, itemRights, notAllowed, type ManagedOrder } from './manageBooking.ts';
import { openManageLink } from './manageLink.ts';
import { claimAt, freeStartsFor } from './moveTargets.ts';

/** The item a visitor may move: an active ticket, event seat or tour of a finalized order, within its rule. */
function movable(m: Pick<ManagedOrder, 'order' | 'items'>, itemId: number): OrderItemView {
  const item = m.order.items.find((i) => i.id === itemId && i.status === 'active');
  const known = item && ((item.type === 'Ticket' && item.ticketId !== null) || (item.type === 'Event' && item.eventId !== null) || (item.type === 'Tour' && item.tourId !== null));
  if (!item || !known) throw invalid('booking could not be moved', [`order item ${itemId} is not an item of this order that can be moved`]);
  if (m.order.status !== 'finalized' || !m.items.get(item.id)?.cancellable) throw notAllowed();
  return item;
}

/** Free starts of the item's offer on a date with room for its quantity, except its own. */
export async function freeSlotsForMove(ctx: Ctx, token: string, itemId: number, date: string): Promise<{ zone: string; slots: SlotLeft[] }> {
  const m = await getManagedOrder(ctx, token);
  return freeStartsFor(systemCtx(ctx), movable(m, itemId), date);
}

export async function moveBooking(ctx: Ctx, token: string, input: { itemId: number; startAt: Date }): Promise<OrderView> {
  const sys = systemCtx(ctx);
  return transaction(ctx.db, async (tx) => {
    const db = tx as unknown as Db;
    const txCtx: Ctx = { ...sys, db, ...(ctx.testing ? { testing: ctx.testing } : {}) };
    const orderId = await openManageLink({ db }, token);
    const order = await findOrder(tx, sys, orderId, true);
    const view = await reload(tx, sys, order.id);
    const m = { order: view, items: await itemRights(txCtx, await itemsWithRules(tx, order.id)) };
    const item = movable(m, input.itemId);
    if (item.startAt.getTime() === input.startAt.getTime()) throw invalid('booking could not be moved', ['the new slot is the booked slot']);
    // The catalogue read finds the target (an event's date); the capacity module checks it below.
    const { claim, eventDateId } = await claimAt(sys, item, input.startAt);
    // The new slot must be one the ticket sells (grid, calendar, rule) before any lock is taken.
    const [resolved] = await resolveClaims(tx, txCtx, [claim]);
    const old = await countedAllocationsOf(tx, { orderItemIds: [item.id] });
    await lockSlots(tx, txCtx, [...old.map((a) => allocationLockKey(a)), ...resolved!.demands.map((d) => d.lockKey)]);
    await releaseCapacity(tx, txCtx, { orderItemIds: [item.id] });
    await claimCapacity(tx, txCtx, [{ claim, holder: { orderItemId: item.id }, expiresAt: null }]);
    const now = ctx.clock.now();
    await setItemStart(tx, item.id, input.startAt, eventDateId);
    await voidBarcodes(tx, [item.id]);
    // One barcode per admission, as at finalization: each ticket or event seat, one per tour booking.
    await issueBarcodes(tx, now, [{ orderItemId: item.id, count: item.type === 'Tour' ? 1 : item.quantity }]);
    await requeueOrderDocumentsAfterCancellation(tx, txCtx, order.id, []);
    await recordAudit(txCtx, { system: 'shop-visitor' }, {
      action: 'order.move', entityType: 'order', entityId: order.id, museumId: item.museumId,
      before: { item_id: item.id, start_at: item.startAt.toISOString(), barcodes: item.barcodes.map((b) => b.code) },
      after: { item_id: item.id, start_at: input.startAt.toISOString() },
    });
    // Partners' systems learn of the new time and barcodes like of a cancellation (docs/webhooks.md).
    await recordEvent(txCtx, 'order.rebooked', { ...orderEventScope(order), data: { moved_item_ids: [item.id], previous_start_at: item.startAt.toISOString() } });
    return reload(tx, sys, order.id);
  });
}
