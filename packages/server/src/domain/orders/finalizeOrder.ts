// POST /orders/:id/finalize: makes a pending order binding. Safe to repeat: a finalized order is
// returned as it is. A pending order with an item that the sellability rule refuses now (a
// closure, or opening hours, seasons or exceptions changed since it was placed) is refused with
// 422 CLOSED and stays pending (docs/adr/0013-sellability-rule.md, "Changed").
import { transaction } from '../../db/transaction.ts';
import { placedItemsClosedReason } from '../capacity/recheck.ts';
import type { Ctx } from '../context.ts';
import { closed } from '../schedules/rule.ts';
import { closureHitOfOrder, finalizeLocked } from './finalize.ts';
import { findOrder, reload, statusAt, type OrderView } from './internal.ts';

export async function finalizeOrder(ctx: Ctx, idOrToken: string): Promise<OrderView> {
  // The answer is read before the commit, from the transaction that made it.
  return transaction(ctx.db, async (tx) => {
    // Schedule locks (shared) first, then the order row: see closureHitOfOrder. Under those
    // locks the rule is asked again with the schedule as committed (placedItemsClosedReason).
    const seen = await findOrder(tx, ctx, idOrToken);
    const pending = statusAt(seen, ctx.clock.now()) === 'pending';
    const closedBy = pending ? ((await closureHitOfOrder(tx, seen.id)) ?? (await placedItemsClosedReason(ctx, tx, seen.id))) : null;
    const order = await findOrder(tx, ctx, idOrToken, true);
    // Still pending under the lock: no closure or change of hours can have committed since.
    if (closedBy !== null && statusAt(order, ctx.clock.now()) === 'pending') throw closed(closedBy);
    await finalizeLocked(tx, ctx, order);
    return reload(tx, ctx, order.id);
  });
}
