// POST /orders/:id/finalize: makes a pending order binding. Safe to repeat: a finalized order is
// returned as it is.
import type { Ctx } from '../context.ts';
import { finalizeLocked } from './finalize.ts';
import { findOrder, reload, type OrderView } from './internal.ts';

export async function finalizeOrder(ctx: Ctx, idOrToken: string): Promise<OrderView> {
  // The answer is read before the commit, from the transaction that made it.
  return ctx.db.transaction(async (tx) => {
    const order = await findOrder(tx, ctx, idOrToken, true);
    await finalizeLocked(tx, ctx, order);
    return reload(tx, ctx, order.id);
  });
}
