// POST /orders/:id/finalize: makes a pending order binding. Safe to repeat: a finalized order is
// returned as it is. A pending order with an item in a period closed since it was placed is
// refused with 422 CLOSED and stays pending (docs/adr/0013-sellability-rule.md, "Changed").
import type { Ctx } from '../context.ts';
import { closed } from '../schedules/rule.ts';
import { closureHitOfOrder, finalizeLocked } from './finalize.ts';
import { findOrder, reload, statusAt, type OrderView } from './internal.ts';

export async function finalizeOrder(ctx: Ctx, idOrToken: string): Promise<OrderView> {
  // The answer is read before the commit, from the transaction that made it.
  return ctx.db.transaction(async (tx) => {
    // Closures first (schedule locks, shared), then the order row: see closureHitOfOrder.
    const seen = await findOrder(tx, ctx, idOrToken);
    const closedBy = statusAt(seen, ctx.clock.now()) === 'pending' ? await closureHitOfOrder(tx, seen.id) : null;
    const order = await findOrder(tx, ctx, idOrToken, true);
    // Still pending under the lock: no closure can have committed since the check.
    if (closedBy !== null && statusAt(order, ctx.clock.now()) === 'pending') throw closed(closedBy);
    await finalizeLocked(tx, ctx, order);
    return reload(tx, ctx, order.id);
  });
}
