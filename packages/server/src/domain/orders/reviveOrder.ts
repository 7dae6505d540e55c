// An expired pending order whose money arrived late (docs/payments.md, "How a payment becomes a
// paid order"): its places are claimed again through the capacity module, and the order is
// pending again for the finalize that follows in the same transaction. When the places are no
// longer sellable (sold out, closed, in the past), or a code it used is gone, the refusal is thrown
// and nothing is changed, provided the caller runs this in a savepoint (settle.ts does).
import type { Tx } from '../../db/client.ts';
import { activeItemClaims, updateOrderRow } from '../../db/repositories/orders.ts';
import { reclaimCapacity } from '../capacity/reclaimCapacity.ts';
import type { Ctx } from '../context.ts';
import { closed } from '../schedules/rule.ts';
import { retakeOrderCodes } from '../vouchers/expiredCodes.ts';
import { closureHitOfOrder } from './finalize.ts';
import { findOrder, statusAt } from './internal.ts';

/** `ctx` must see the order (a system context). Does nothing unless the order is expired. */
export async function reviveOrder(tx: Tx, ctx: Ctx, orderId: number): Promise<void> {
  // Schedule locks (shared) before the order row, as finalizeOrder takes them (see
  // closureHitOfOrder): a closure takes them in the same order, so the two cannot deadlock.
  const closedBy = await closureHitOfOrder(tx, orderId);
  const order = await findOrder(tx, ctx, orderId, true);
  const now = ctx.clock.now();
  if (statusAt(order, now) !== 'expired') return;
  if (closedBy !== null) throw closed(closedBy);
  // Gift cards and vouchers sold hold no places: only admissions are claimed again.
  const items = (await activeItemClaims(tx, orderId)).filter((i) => i.ticketId !== null || i.eventDateId !== null || i.tourId !== null);
  // Pending again for the usual time: the finalize that follows makes it permanent at once.
  const expiresAt = new Date(now.getTime() + ctx.config.orderPendingMinutes * 60_000);
  await reclaimCapacity(tx, ctx, items, expiresAt);
  // Its promo codes and vouchers, when the sweep gave them back meanwhile (vouchers/expiredCodes.ts).
  await retakeOrderCodes(tx, ctx, orderId);
  await updateOrderRow(tx, orderId, { expiresAt, updatedAt: now });
}
